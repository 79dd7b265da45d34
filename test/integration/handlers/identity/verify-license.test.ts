import { createHmac } from 'node:crypto';

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { LawyerRepository } from '../../../../functions/data/directory/lawyers';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { issueLicense } from '../../../../functions/domain/identity/licenses';
import { createVerifyLicenseHandler } from '../../../../functions/handlers/identity/verify-license';
import type { ApiHandler } from '../../../../functions/http/api-event';
import {
  createLicenseKeyVault,
  type LicenseKeyVault,
} from '../../../../functions/security/license-key-vault';
import { SESSION_LIFETIME_SECONDS, SIGN_IN_THROTTLE } from '../../../../shared/constants';
import { MESSAGES } from '../../../../shared/messages';
import { type LicenseType, VerifyLicenseReply } from '../../../../shared/schemas/session';
import {
  apiEvent,
  createTestApp,
  disposeTestApp,
  invoke,
  MemoryLogger,
  type TestApp,
} from '../../../support/app';
import { lawyerRecord, minutesAfterOrigin, scanTable, uniqueEmail } from '../../../support/records';

describe('verify-license', () => {
  let app: TestApp;
  let vault: LicenseKeyVault;
  let handler: ApiHandler;
  /** Every licence key and token this file handles, to prove none reaches a log or the table. */
  const secrets: string[] = [];
  let ipCounter = 0;

  /** A client address no other test uses, so that throttling never crosses tests. */
  const uniqueIp = () => {
    ipCounter += 1;
    return `10.${Math.floor(ipCounter / 250)}.${ipCounter % 250}.7`;
  };

  /** The attempts counted for a client address in its current window, read from the table (none: 0). */
  const attemptsOf = async (sourceIp: string) => {
    const client = createHmac('sha256', app.keys.licenseHashKey)
      .update(`client:${sourceIp}`)
      .digest('base64url');
    const { Item } = await app.table.doc.send(
      new GetCommand({
        TableName: app.table.name,
        Key: { PK: `SIGNIN#${client}`, SK: 'ATTEMPTS' },
        ConsistentRead: true,
      }),
    );
    return (Item?.attempts as number | undefined) ?? 0;
  };

  /** Issues an active licence with a generated key and remembers the key. */
  const issue = async (licenseType: LicenseType, userEmail: string | null = uniqueEmail('licence')) => {
    const issued = await issueLicense(
      new LicenseRepository(app.table),
      vault,
      { licenseType, userEmail },
      minutesAfterOrigin(0),
    );
    secrets.push(issued.licenseKey);
    return issued;
  };

  /** POSTs a licence key to verify-license from a client address. */
  const signIn = async (licenseKey: string, sourceIp = uniqueIp()) => {
    const reply = await invoke<VerifyLicenseReply>(
      handler,
      apiEvent('POST', '/api/verify-license', { body: { licenseKey }, sourceIp }),
    );
    if (reply.body.token) secrets.push(reply.body.token);
    return reply;
  };

  /** The expiry a session opened now gets. */
  const expiryFromNow = () =>
    new Date((Math.floor(app.clock.now().getTime() / 1000) + SESSION_LIFETIME_SECONDS) * 1000).toISOString();

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    vault = createLicenseKeyVault(app.keys);
    handler = createVerifyLicenseHandler(app);
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  describe('valid keys', () => {
    it('signs an admin in as Administrateur with a session token', async () => {
      // Arrange
      const { licenseKey } = await issue('admin', null);
      const expiresAt = expiryFromNow();

      // Act
      const { statusCode, body } = await signIn(licenseKey);

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toEqual({
        valid: true,
        licenseType: 'admin',
        userEmail: '',
        displayName: 'Administrateur',
        token: expect.any(String),
        expiresAt,
      });
      expect(VerifyLicenseReply.safeParse(body).success).toBe(true);
    });

    it('accepts a key typed with surrounding spaces', async () => {
      // Arrange
      const { licenseKey } = await issue('admin', null);

      // Act
      const { body } = await signIn(`  ${licenseKey} `);

      // Assert
      expect(body.valid).toBe(true);
    });

    it('accepts a generated key typed in lower case, as copied from an e-mail', async () => {
      const { licenseKey } = await issue('lawyer');

      const { body } = await signIn(` ${licenseKey.toLowerCase()}  `);

      expect(body.valid).toBe(true);
    });

    it('stores a key an admin chose in lower case in upper case, and accepts it in any case', async () => {
      const { licenseKey, record } = await issueLicense(
        new LicenseRepository(app.table),
        vault,
        { licenseKey: 'cabinet-dupont-2026', licenseType: 'lawyer', userEmail: uniqueEmail('choisie') },
        minutesAfterOrigin(0),
      );
      secrets.push(licenseKey);

      expect(licenseKey).toBe('CABINET-DUPONT-2026');
      expect(vault.decrypt(record.keyCiphertext)).toBe('CABINET-DUPONT-2026');
      for (const typed of ['cabinet-dupont-2026', 'Cabinet-Dupont-2026', 'CABINET-DUPONT-2026']) {
        expect((await signIn(typed)).body.valid, typed).toBe(true);
      }
    });

    it('still accepts, as it was typed, a mixed-case key stored before keys were normalised', async () => {
      // A record as the earlier code wrote it: hashed and encrypted exactly as chosen.
      const chosen = 'Etude-Martin-ancienne';
      await new LicenseRepository(app.table).create({
        keyHash: vault.hashes(chosen).at(-1) ?? '',
        keyCiphertext: vault.encrypt(chosen),
        licenseType: 'lawyer',
        userEmail: uniqueEmail('ancienne'),
        isActive: true,
        subscriptionStatus: null,
        nextPaymentDue: null,
        accessEndsAt: null,
        createdAt: minutesAfterOrigin(0),
        updatedAt: minutesAfterOrigin(0),
      });
      secrets.push(chosen);

      expect((await signIn(` ${chosen} `)).body.valid).toBe(true);
      expect((await signIn(chosen.toUpperCase())).body.valid).toBe(false);
    });

    it("names a lawyer after the profile holding his key, with the profile's e-mail", async () => {
      // Arrange
      const { licenseKey, record } = await issue('lawyer');
      const profile = lawyerRecord({
        firstName: 'Camille',
        lastName: 'Martin',
        licenseKeyHash: record.keyHash,
        licenseKeyCiphertext: record.keyCiphertext,
      });
      await new LawyerRepository(app.table).create(profile);

      // Act
      const { statusCode, body } = await signIn(licenseKey);

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toMatchObject({
        valid: true,
        licenseType: 'lawyer',
        displayName: 'Camille Martin',
        userEmail: profile.email,
      });
      expect(profile.email).not.toBe(record.userEmail);
    });

    it('finds the profile by the licence e-mail when no profile holds the key', async () => {
      // Arrange
      const { licenseKey, record } = await issue('lawyer');
      await new LawyerRepository(app.table).create(
        lawyerRecord({ firstName: 'Louis', lastName: 'Bernard', email: record.userEmail! }),
      );

      // Act
      const { body } = await signIn(licenseKey);

      // Assert
      expect(body).toMatchObject({ valid: true, displayName: 'Louis Bernard', userEmail: record.userEmail });
    });

    it("names a lawyer without profile 'Avocat', with the licence e-mail", async () => {
      // Arrange
      const { licenseKey, record } = await issue('lawyer');

      // Act
      const { statusCode, body } = await signIn(licenseKey);

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toMatchObject({
        valid: true,
        licenseType: 'lawyer',
        displayName: 'Avocat',
        userEmail: record.userEmail,
        token: expect.any(String),
      });
    });
  });

  describe('refused keys', () => {
    it("answers a wrong key with valid false and 'Clé de licence invalide'", async () => {
      // Act
      const { statusCode, body } = await signIn('NOTARY-WRONGKEY');

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toEqual({ valid: false, error: 'Clé de licence invalide' });
    });

    it('refuses an inactive licence without opening a session', async () => {
      // Arrange
      const { licenseKey, record } = await issue('lawyer');
      await new LicenseRepository(app.table).updateState(
        record.keyHash,
        { isActive: false, subscriptionStatus: 'canceled', nextPaymentDue: null, accessEndsAt: null },
        minutesAfterOrigin(1),
      );

      // Act
      const { statusCode, body } = await signIn(licenseKey);

      // Assert
      expect(statusCode).toBe(200);
      expect(body).toEqual({ valid: false, error: MESSAGES.session.licenseInactive });
    });
  });

  describe('bad requests', () => {
    it.each([
      ['no body', undefined, 400, MESSAGES.request.notJson],
      ['an empty body', '', 400, MESSAGES.request.notJson],
      ['a body that is not JSON', 'not json', 400, MESSAGES.request.notJson],
      ['a JSON array', '["NOTARY-ABCD1234"]', 400, MESSAGES.request.notJson],
      ['JSON null', 'null', 400, MESSAGES.request.notJson],
      ['an object without key', '{}', 400, 'La clé de licence est requise'],
      ['a key that is a number', '{"licenseKey":12345}', 400, 'La clé de licence est requise'],
      ['a key of 3 characters', '{"licenseKey":"abc"}', 400, 'La clé de licence est requise'],
      [
        'a body of 200 KB',
        JSON.stringify({ licenseKey: 'K'.repeat(200 * 1024) }),
        413,
        'Requête trop volumineuse.',
      ],
    ])('answers %s with a French error', async (_label, rawBody, status, message) => {
      // Arrange
      const event = apiEvent('POST', '/api/verify-license', { sourceIp: uniqueIp() });
      event.body = rawBody;

      // Act
      const { statusCode, body } = await invoke(handler, event);

      // Assert
      expect(statusCode).toBe(status);
      expect(body).toEqual({ error: message });
    });
  });

  describe('throttling', () => {
    /** Sends `count` wrong keys from one client; returns the waits they caused. */
    const failRepeatedly = async (count: number, sourceIp: string) => {
      const before = app.clock.sleeps.length;
      for (let attempt = 0; attempt < count; attempt++) {
        const { body } = await signIn(`NOTARY-WRONG${String(attempt).padStart(3, '0')}`, sourceIp);
        expect(body.valid).toBe(false);
      }
      return app.clock.sleeps.slice(before);
    };

    it('does not slow a client down before its first wrong keys add up', async () => {
      // Act
      const waits = await failRepeatedly(SIGN_IN_THROTTLE.slowAfter, uniqueIp());

      // Assert
      expect(waits).toEqual([]);
    });

    it('slows further attempts down with growing waits, capped', async () => {
      // Arrange
      const sourceIp = uniqueIp();
      await failRepeatedly(SIGN_IN_THROTTLE.slowAfter, sourceIp);
      const slowedAttempts = SIGN_IN_THROTTLE.lockAfter - SIGN_IN_THROTTLE.slowAfter;

      // Act
      const waits = await failRepeatedly(slowedAttempts, sourceIp);

      // Assert
      const expected = Array.from({ length: slowedAttempts }, (_, index) =>
        Math.min((index + 1) * SIGN_IN_THROTTLE.delayStepMs, SIGN_IN_THROTTLE.maxDelayMs),
      );
      expect(waits).toEqual(expected);
      expect(waits.at(-1)).toBe(SIGN_IN_THROTTLE.maxDelayMs);
      expect(Math.max(...waits)).toBe(SIGN_IN_THROTTLE.maxDelayMs);
    });

    it('refuses even the right key once the client is locked, with the same reply as a wrong key', async () => {
      // Arrange
      const { licenseKey } = await issue('admin', null);
      const sourceIp = uniqueIp();
      await failRepeatedly(SIGN_IN_THROTTLE.lockAfter, sourceIp);

      // Act
      const right = await signIn(licenseKey, sourceIp);
      const wrong = await signIn('NOTARY-WRONGKEY', sourceIp);

      // Assert
      expect(right.statusCode).toBe(429);
      expect(right.body).toEqual({ valid: false, error: MESSAGES.login.tooManyAttempts });
      expect(wrong.statusCode).toBe(right.statusCode);
      expect(wrong.body).toEqual(right.body);
    });

    it('does not lock another client out', async () => {
      // Arrange
      const { licenseKey } = await issue('admin', null);
      await failRepeatedly(SIGN_IN_THROTTLE.lockAfter, uniqueIp());
      const sleepsBefore = app.clock.sleeps.length;

      // Act
      const { statusCode, body } = await signIn(licenseKey, uniqueIp());

      // Assert
      expect(statusCode).toBe(200);
      expect(body.valid).toBe(true);
      expect(app.clock.sleeps.length).toBe(sleepsBefore);
    });

    it('lets the right key in again once the window has passed', async () => {
      // Arrange
      const { licenseKey } = await issue('admin', null);
      const sourceIp = uniqueIp();
      await failRepeatedly(SIGN_IN_THROTTLE.lockAfter, sourceIp);
      app.clock.advance(SIGN_IN_THROTTLE.windowSeconds * 1000 + 1);

      // Act
      const { statusCode, body } = await signIn(licenseKey, sourceIp);

      // Assert
      expect(statusCode).toBe(200);
      expect(body.valid).toBe(true);
    });

    it('does not let a right key erase the wrong ones before it', async () => {
      // Arrange
      const { licenseKey } = await issue('admin', null);
      const sourceIp = uniqueIp();
      await failRepeatedly(SIGN_IN_THROTTLE.slowAfter, sourceIp);
      expect((await signIn(licenseKey, sourceIp)).body.valid).toBe(true);

      // Act
      const waits = await failRepeatedly(1, sourceIp);

      // Assert
      expect(waits).toEqual([SIGN_IN_THROTTLE.delayStepMs]);
    });

    it('does not slow down right keys signing in at once from one address (an office behind one NAT)', async () => {
      // Arrange: as many colleagues at once as the lock leaves room for, three rounds.
      const { licenseKey } = await issue('admin', null);
      const sourceIp = uniqueIp();
      const sleepsBefore = app.clock.sleeps.length;
      const statuses: number[] = [];

      // Act
      for (let round = 0; round < 3; round++) {
        const replies = await Promise.all(
          Array.from({ length: SIGN_IN_THROTTLE.lockAfter - 1 }, () => signIn(licenseKey, sourceIp)),
        );
        statuses.push(...replies.map((reply) => reply.statusCode));
      }

      // Assert
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(app.clock.sleeps.length).toBe(sleepsBefore);
      expect(await attemptsOf(sourceIp)).toBe(0);
    });

    it('counts every one of 100 parallel wrong keys and answers no more of them than the lock allows', async () => {
      // Arrange: ten times as many at once as the lock allows (each is looked up, then counted: two
      // calls, all from this one process's client).
      const sourceIp = uniqueIp();
      const sent = 10 * SIGN_IN_THROTTLE.lockAfter;

      // Act
      const replies = await Promise.all(
        Array.from({ length: sent }, (_, index) =>
          signIn(`NOTARY-PAR${String(index).padStart(5, '0')}`, sourceIp),
        ),
      );

      // Assert
      const answered = replies.filter((reply) => reply.statusCode === 200);
      const refused = replies.filter((reply) => reply.statusCode === 429);
      expect(answered).toHaveLength(SIGN_IN_THROTTLE.lockAfter);
      for (const reply of answered)
        expect(reply.body).toEqual({ valid: false, error: MESSAGES.login.invalidKey });
      expect(refused).toHaveLength(sent - SIGN_IN_THROTTLE.lockAfter);
      for (const reply of refused) {
        expect(reply.body).toEqual({ valid: false, error: MESSAGES.login.tooManyAttempts });
      }
      // The answered wrong keys stay counted; the refused ones found no place to count in.
      expect(await attemptsOf(sourceIp)).toBe(SIGN_IN_THROTTLE.lockAfter);
    });

    it('never refuses a right key because earlier attempts of its address are still in flight', async () => {
      // Arrange: as many colleagues as the lock allows wrong keys are held in flight, their licence
      // look-ups waiting for a gate, while four times as many sign in from the same address.
      const { licenseKey } = await issue('admin', null);
      const sourceIp = uniqueIp();
      const sleepsBefore = app.clock.sleeps.length;
      const lookUp = LicenseRepository.prototype.getForSignIn;
      let openGate = () => {};
      const gate = new Promise<void>((resolve) => {
        openGate = resolve;
      });
      let held = 0;
      let allHeld = () => {};
      const heldAll = new Promise<void>((resolve) => {
        allHeld = resolve;
      });
      const lookups = vi
        .spyOn(LicenseRepository.prototype, 'getForSignIn')
        .mockImplementation(async function (this: LicenseRepository, keyHashes, device) {
          if (held < SIGN_IN_THROTTLE.lockAfter) {
            held += 1;
            if (held === SIGN_IN_THROTTLE.lockAfter) allHeld();
            await gate;
          }
          return lookUp.call(this, keyHashes, device);
        });
      try {
        const inFlight = Array.from({ length: SIGN_IN_THROTTLE.lockAfter }, () =>
          signIn(licenseKey, sourceIp),
        );
        await heldAll;

        // Act: the others answered while the first are still in flight, then the first let go.
        const meanwhile = await Promise.all(
          Array.from({ length: 4 * SIGN_IN_THROTTLE.lockAfter }, () => signIn(licenseKey, sourceIp)),
        );
        openGate();
        const first = await Promise.all(inFlight);

        // Assert: every one signed in, none waited (no slow-down), and none is counted.
        for (const reply of [...meanwhile, ...first]) {
          expect(reply.statusCode).toBe(200);
          expect(reply.body.valid).toBe(true);
        }
        expect(app.clock.sleeps.length).toBe(sleepsBefore);
        expect(await attemptsOf(sourceIp)).toBe(0);
      } finally {
        openGate();
        lookups.mockRestore();
      }
    });

    it('lets a right key in past wrong keys in flight as long as they leave the lock unreached', async () => {
      // Arrange: as many wrong keys at once as one short of the lock, and the right key beside them.
      const { licenseKey } = await issue('admin', null);
      const sourceIp = uniqueIp();

      // Act
      const replies = await Promise.all([
        ...Array.from({ length: SIGN_IN_THROTTLE.lockAfter - 1 }, (_, index) =>
          signIn(`NOTARY-INF${String(index).padStart(5, '0')}`, sourceIp),
        ),
        signIn(licenseKey, sourceIp),
      ]);

      // Assert
      expect(replies.at(-1)?.statusCode).toBe(200);
      expect(replies.at(-1)?.body.valid).toBe(true);
      expect(await attemptsOf(sourceIp)).toBe(SIGN_IN_THROTTLE.lockAfter - 1);
    });

    it('slows then refuses a client alternating wrong, wrong and his own right key', async () => {
      // Arrange
      const { licenseKey } = await issue('admin', null);
      const sourceIp = uniqueIp();
      const before = app.clock.sleeps.length;
      const statuses: number[] = [];

      // Act
      for (let round = 0; round < 100; round++) {
        statuses.push((await signIn(`NOTARY-ALT${String(round).padStart(4, '0')}A`, sourceIp)).statusCode);
        statuses.push((await signIn(`NOTARY-ALT${String(round).padStart(4, '0')}B`, sourceIp)).statusCode);
        statuses.push((await signIn(licenseKey, sourceIp)).statusCode);
      }

      // Assert
      expect(app.clock.sleeps.length).toBeGreaterThan(before);
      const firstRefusal = statuses.indexOf(429);
      expect(firstRefusal).toBeGreaterThan(0);
      expect(firstRefusal).toBeLessThanOrEqual(3 * SIGN_IN_THROTTLE.lockAfter);
      expect(statuses.slice(firstRefusal).every((status) => status === 429)).toBe(true);
    });
  });

  describe('secrets', () => {
    it('answers an internal failure with a 500 without details and logs it without the key', async () => {
      // Arrange
      const { licenseKey } = await issue('admin', null);
      const logger = new MemoryLogger();
      const broken = createVerifyLicenseHandler({
        ...app,
        logger,
        table: { doc: app.table.doc, name: `absent-${app.table.name}` },
      });

      // Act
      const { statusCode, body } = await invoke(
        broken,
        apiEvent('POST', '/api/verify-license', { body: { licenseKey }, sourceIp: uniqueIp() }),
      );

      // Assert
      expect(statusCode).toBe(500);
      expect(body).toEqual({ error: MESSAGES.request.internal });
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]).toContain('ResourceNotFoundException');
      expect(logger.lines[0]).not.toContain(licenseKey);
    });

    it('never writes a licence key or a session token to the logs or the table', async () => {
      // Arrange
      const { licenseKey } = await issue('lawyer');
      await signIn(licenseKey);
      await signIn('NOTARY-WRONGKEY');

      // Act
      const logs = app.logger.lines.join('\n');
      const stored = JSON.stringify(await scanTable(app.table));

      // Assert
      expect(secrets.length).toBeGreaterThan(2);
      expect(stored).toContain('SESSION#');
      for (const secret of secrets) {
        expect(logs).not.toContain(secret);
        expect(stored).not.toContain(secret);
      }
    });
  });

  describe('client address behind CloudFront', () => {
    const ORIGIN_SECRET = 'secret-origine-de-test-0123456789';

    /** Wrong keys from one source address, each claiming another viewer address. */
    const failFromViewers = async (count: number, sourceIp: string, proof: string | undefined) => {
      const behindCloudFront = createVerifyLicenseHandler({
        ...app,
        originSecret: async () => ORIGIN_SECRET,
      });
      const replies = [];
      for (let attempt = 0; attempt < count; attempt += 1) {
        const headers: Record<string, string> = { 'cloudfront-viewer-address': `${uniqueIp()}:443` };
        if (proof) headers['x-origin-verify'] = proof;
        replies.push(
          await invoke<VerifyLicenseReply>(
            behindCloudFront,
            apiEvent('POST', '/api/verify-license', {
              body: { licenseKey: 'NOTARY-WRONGKEY' },
              sourceIp,
              headers,
            }),
          ),
        );
      }
      return replies;
    };

    it('counts by the viewer address on requests that carry the origin secret', async () => {
      // Act: one CloudFront edge address, many viewers, one wrong key each.
      const replies = await failFromViewers(SIGN_IN_THROTTLE.lockAfter + 2, uniqueIp(), ORIGIN_SECRET);

      // Assert: no viewer is locked, since each made one attempt.
      expect(replies.every(({ statusCode }) => statusCode === 200)).toBe(true);
    });

    it.each([
      ['without the origin secret', undefined],
      ['with a wrong origin secret', 'secret-origine-devine-0123456789'],
    ])('refuses a request %s with 403, before looking at the key', async (_case, proof) => {
      // Act: a caller of the execute-api address, forging a new viewer address on every try.
      const replies = await failFromViewers(SIGN_IN_THROTTLE.lockAfter + 1, uniqueIp(), proof);

      // Assert: every try is refused as a direct access, none is even counted as a wrong key.
      expect(new Set(replies.map(({ statusCode }) => statusCode))).toEqual(new Set([403]));
      expect(replies[0]?.body).toEqual({ error: MESSAGES.request.directAccess });
    });
  });
});
