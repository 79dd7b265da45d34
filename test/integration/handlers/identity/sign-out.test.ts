import { randomBytes } from 'node:crypto';

import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { issueLicense } from '../../../../functions/domain/identity/licenses';
import { createSignOutHandler } from '../../../../functions/handlers/identity/sign-out';
import { createVerifyLicenseHandler } from '../../../../functions/handlers/identity/verify-license';
import type { ApiHandler } from '../../../../functions/http/api-event';
import { createLicenseKeyVault } from '../../../../functions/security/license-key-vault';
import { SESSION_LIFETIME_SECONDS } from '../../../../shared/constants';
import { MESSAGES } from '../../../../shared/messages';
import type { VerifyLicenseReply } from '../../../../shared/schemas/session';
import { apiEvent, createTestApp, disposeTestApp, invoke, type TestApp } from '../../../support/app';
import { minutesAfterOrigin, scanTable, uniqueEmail } from '../../../support/records';

/** Changes one character in the middle of a token part, so that its bytes really change. */
function alterPart(token: string, partIndex: number): string {
  const parts = token.split('.');
  const part = parts[partIndex]!;
  const middle = Math.floor(part.length / 2);
  parts[partIndex] = part.slice(0, middle) + (part[middle] === 'A' ? 'B' : 'A') + part.slice(middle + 1);
  return parts.join('.');
}

describe('sign-out', () => {
  let app: TestApp;
  let signInHandler: ApiHandler;
  let signOutHandler: ApiHandler;
  /** Every licence key and token this file handles, to prove none reaches a log or the table. */
  const secrets: string[] = [];
  let ipCounter = 0;

  /** Issues a lawyer licence, signs in with it and returns the licence and the session token. */
  const signedIn = async () => {
    const vault = createLicenseKeyVault(app.keys);
    const issued = await issueLicense(
      new LicenseRepository(app.table),
      vault,
      { licenseType: 'lawyer', userEmail: uniqueEmail('lawyer') },
      minutesAfterOrigin(0),
    );
    secrets.push(issued.licenseKey);
    return { ...issued, token: await tokenFor(issued.licenseKey) };
  };

  /** A new session token for a licence key, from verify-license. */
  const tokenFor = async (licenseKey: string) => {
    ipCounter += 1;
    const { body } = await invoke<VerifyLicenseReply>(
      signInHandler,
      apiEvent('POST', '/api/verify-license', { body: { licenseKey }, sourceIp: `10.1.0.${ipCounter}` }),
    );
    if (!body.token) throw new Error(`Connexion refusée: ${body.error}`);
    secrets.push(body.token);
    return body.token;
  };

  const signOut = (token?: string) =>
    invoke(signOutHandler, apiEvent('POST', '/api/sign-out', token ? { token } : {}));

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    signInHandler = createVerifyLicenseHandler(app);
    signOutHandler = createSignOutHandler(app);
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  describe('a valid session', () => {
    it('signs out with the token of a sign-in', async () => {
      // Arrange
      const { token } = await signedIn();

      // Act
      const { statusCode, body } = await signOut(token);

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toEqual({ success: true });
    });

    it('refuses the token once the session has ended on the server', async () => {
      // Arrange
      const { token } = await signedIn();
      await signOut(token);

      // Act
      const { statusCode, body } = await signOut(token);

      // Assert
      expect(statusCode).toBe(401);
      expect(body).toEqual({ error: MESSAGES.session.required });
    });

    it('ends only the session of the token, not the other sessions of the licence', async () => {
      // Arrange
      const { licenseKey, token } = await signedIn();
      const otherToken = await tokenFor(licenseKey);
      await signOut(token);

      // Act
      const { statusCode } = await signOut(otherToken);

      // Assert
      expect(statusCode).toBe(200);
    });

    it('accepts a token until just before its lifetime ends', async () => {
      // Arrange
      const { token } = await signedIn();
      app.clock.advance((SESSION_LIFETIME_SECONDS - 60) * 1000);

      // Act
      const { statusCode } = await signOut(token);

      // Assert
      expect(statusCode).toBe(200);
    });
  });

  describe('refused sessions', () => {
    it('refuses a request without Authorization', async () => {
      // Act
      const { statusCode, body } = await signOut();

      // Assert
      expect(statusCode).toBe(401);
      expect(body).toEqual({ error: MESSAGES.session.required });
    });

    it('refuses an Authorization header that is not a bearer token', async () => {
      // Arrange
      const { token } = await signedIn();
      const event = apiEvent('POST', '/api/sign-out');
      event.headers.authorization = `Basic ${token}`;

      // Act
      const { statusCode, body } = await invoke(signOutHandler, event);

      // Assert
      expect(statusCode).toBe(401);
      expect(body).toEqual({ error: MESSAGES.session.required });
    });

    it.each([
      ['its signature', 2],
      ['its claims', 1],
    ])('refuses a token whose %s was tampered with', async (_label, partIndex) => {
      // Arrange
      const { token } = await signedIn();

      // Act
      const { statusCode, body } = await signOut(alterPart(token, partIndex));

      // Assert
      expect(statusCode).toBe(401);
      expect(body).toEqual({ error: MESSAGES.session.required });
      expect((await signOut(token)).statusCode).toBe(200);
    });

    it('refuses a token signed with another key', async () => {
      // Arrange
      const { token } = await signedIn();
      const [, claims] = token.split('.');
      const payload = JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8'));
      const forged = await new SignJWT({ ...payload, role: 'admin' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(randomBytes(32));

      // Act
      const { statusCode, body } = await signOut(forged);

      // Assert
      expect(statusCode).toBe(401);
      expect(body).toEqual({ error: MESSAGES.session.required });
    });

    it('refuses a token once its lifetime has passed', async () => {
      // Arrange
      const { token } = await signedIn();
      app.clock.advance(SESSION_LIFETIME_SECONDS * 1000 + 1000);

      // Act
      const { statusCode, body } = await signOut(token);

      // Assert
      expect(statusCode).toBe(401);
      expect(body).toEqual({ error: MESSAGES.session.required });
    });

    it('refuses a token whose licence was deactivated after sign-in', async () => {
      // Arrange
      const { token, record } = await signedIn();
      await new LicenseRepository(app.table).updateState(
        record.keyHash,
        { isActive: false, subscriptionStatus: 'canceled', nextPaymentDue: null, accessEndsAt: null },
        minutesAfterOrigin(1),
      );

      // Act
      const { statusCode, body } = await signOut(token);

      // Assert
      expect(statusCode).toBe(401);
      expect(body).toEqual({ error: 'Licence inactive. Accès suspendu.' });
    });

    it('refuses a token whose licence was deleted after sign-in', async () => {
      // Arrange
      const { token, record } = await signedIn();
      await new LicenseRepository(app.table).delete(record.keyHash);

      // Act
      const { statusCode, body } = await signOut(token);

      // Assert
      expect(statusCode).toBe(401);
      expect(body).toEqual({ error: MESSAGES.session.licenseInactive });
    });
  });

  describe('secrets', () => {
    it('never writes a licence key or a session token to the logs or the table', async () => {
      // Arrange
      const { token } = await signedIn();
      await signOut(alterPart(token, 2));

      // Act
      const logs = app.logger.lines.join('\n');
      const stored = JSON.stringify(await scanTable(app.table));

      // Assert
      expect(secrets.length).toBeGreaterThan(2);
      for (const secret of secrets) {
        expect(logs).not.toContain(secret);
        expect(stored).not.toContain(secret);
      }
    });
  });
});
