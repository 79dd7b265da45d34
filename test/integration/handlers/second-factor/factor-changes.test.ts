import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';

import { MESSAGES } from '../../../../shared/messages';
import type {
  PasskeyOptionsReply,
  RememberedBrowserList,
  SecondFactorStatus,
} from '../../../../shared/schemas/second-factor';
import { createTestApp, disposeTestApp, TEST_RELYING_PARTY, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer } from '../../../support/directory';
import { codeOf, enrolTotp, issueLicenseFor, signInFrom, verifyCode } from '../../../support/second-factor';
import { SoftwarePasskey } from '../../../support/software-passkey';

/**
 * Enrolling, replacing, removing or resetting a factor ends every other session of the licence:
 * nothing opened before the change (a session opened by the key alone before a firm enrolled its
 * factor, say) outlives it.
 */
describe('a factor change ends every other session', () => {
  let app: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'), { requireSecondFactor: true });
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });
  beforeEach(async () => {
    app.clock.advance(60 * 60 * 1000);
    const admin = await issueLicenseFor(app, 'admin', null);
    adminToken = (await enrolTotp(app, (await signInFrom(app, admin.licenseKey)).token!)).token;
  });

  const works = async (token: string) => (await callRoute(app, 'getProfile', { token })).statusCode;

  it('ends the sessions opened before a firm enrolled its first factor, not the one that enrolled it', async () => {
    // Arrange: two sessions opened with the key alone while the licence had no factor.
    const lawyer = await createSignedInLawyer(app, adminToken);
    const other = (await signInFrom(app, lawyer.licenseKey)).token!;
    expect(await works(other)).toBe(200);

    // Act
    const enrolled = await enrolTotp(app, lawyer.token);

    // Assert
    expect(await works(other)).toBe(401);
    expect(await works(enrolled.token)).toBe(200);
  });

  it('ends the other sessions when a passkey is added', async () => {
    // Arrange
    const lawyer = await createSignedInLawyer(app, adminToken);
    const other = (await signInFrom(app, lawyer.licenseKey)).token!;
    const passkey = new SoftwarePasskey({ rpId: TEST_RELYING_PARTY.id, origin: TEST_RELYING_PARTY.origin });

    // Act
    const { body } = await callRoute<PasskeyOptionsReply>(app, 'passkeyRegistrationOptions', {
      token: lawyer.token,
    });
    const registered = await callRoute(app, 'registerPasskey', {
      token: lawyer.token,
      body: { credential: passkey.register(body.options) },
    });

    // Assert
    expect(registered.statusCode).toBe(200);
    expect(await works(other)).toBe(401);
    expect(await works(lawyer.token)).toBe(200);
  });

  it('ends the other sessions, verified and pending, when the factor is removed', async () => {
    // Arrange: a second verified session and a pending one beside the one that removes.
    const lawyer = await createSignedInLawyer(app, adminToken);
    const owner = await enrolTotp(app, lawyer.token);
    const pending = (await signInFrom(app, lawyer.licenseKey)).token!;
    const verified = (await verifyCode(app, pending, codeOf(app, owner.secret))).body.session!.token!;
    const stillPending = (await signInFrom(app, lawyer.licenseKey)).token!;
    app.clock.advance(30_000);

    // Act
    const removed = await callRoute(app, 'removeTotp', { token: owner.token });

    // Assert
    expect(removed).toMatchObject({ statusCode: 200, body: { success: true } });
    expect(await works(verified)).toBe(401);
    expect((await callRoute(app, 'secondFactorStatus', { token: stillPending })).statusCode).toBe(401);
    expect(await works(owner.token)).toBe(200);
    const status = await callRoute<SecondFactorStatus>(app, 'secondFactorStatus', { token: owner.token });
    expect(status.body).toMatchObject({ enrolled: false, totp: false, recoveryCodesLeft: 0 });
    // The licence signs in with its key alone again, and remembers no browser.
    expect((await signInFrom(app, lawyer.licenseKey)).secondFactor).toBeUndefined();
    const browsers = await callRoute<RememberedBrowserList>(app, 'listRememberedBrowsers', {
      token: owner.token,
    });
    expect(browsers.body.browsers).toEqual([]);
  });

  it('keeps an admin licence from removing its last factor', async () => {
    // Arrange
    const admin = await issueLicenseFor(app, 'admin', null);
    const owner = await enrolTotp(app, (await signInFrom(app, admin.licenseKey)).token!);

    // Act
    const refused = await callRoute(app, 'removeTotp', { token: owner.token });

    // Assert
    expect(refused).toMatchObject({
      statusCode: 400,
      body: { error: MESSAGES.secondFactor.lastFactorRequired },
    });
    expect((await signInFrom(app, admin.licenseKey)).secondFactor?.step).toBe('verify');
  });

  it('removes one passkey of two after a recent check, ending the other sessions', async () => {
    // Arrange: TOTP and a passkey, and another verified session.
    const lawyer = await createSignedInLawyer(app, adminToken);
    const owner = await enrolTotp(app, lawyer.token);
    const passkey = new SoftwarePasskey({ rpId: TEST_RELYING_PARTY.id, origin: TEST_RELYING_PARTY.origin });
    const { body } = await callRoute<PasskeyOptionsReply>(app, 'passkeyRegistrationOptions', {
      token: owner.token,
    });
    await callRoute(app, 'registerPasskey', {
      token: owner.token,
      body: { credential: passkey.register(body.options) },
    });
    const pending = (await signInFrom(app, lawyer.licenseKey)).token!;
    const other = (await verifyCode(app, pending, codeOf(app, owner.secret))).body.session!.token!;
    const { body: status } = await callRoute<SecondFactorStatus>(app, 'secondFactorStatus', {
      token: owner.token,
    });

    // Act
    const removed = await callRoute(app, 'removePasskey', {
      token: owner.token,
      params: { id: status.passkeys[0]!.id },
    });

    // Assert
    expect(removed.statusCode).toBe(200);
    expect(await works(other)).toBe(401);
    const after = await callRoute<SecondFactorStatus>(app, 'secondFactorStatus', { token: owner.token });
    expect(after.body).toMatchObject({ enrolled: true, totp: true, passkeys: [] });
    const unknown = await callRoute(app, 'removePasskey', { token: owner.token, params: { id: 'AAAA' } });
    expect(unknown).toMatchObject({
      statusCode: 404,
      body: { error: MESSAGES.secondFactor.passkeyNotFound },
    });
  });

  it("forgets the licence's remembered browsers when an admin resets its factor", async () => {
    // Arrange
    const lawyer = await createSignedInLawyer(app, adminToken);
    const owner = await enrolTotp(app, lawyer.token);

    // Act
    const reset = await callRoute(app, 'resetSecondFactor', {
      token: adminToken,
      body: { licenseKey: lawyer.licenseKey },
    });

    // Assert
    expect(reset.statusCode).toBe(200);
    expect(await works(owner.token)).toBe(401);
    const fresh = (await signInFrom(app, lawyer.licenseKey, [owner.device])).token!;
    const browsers = await callRoute<RememberedBrowserList>(app, 'listRememberedBrowsers', { token: fresh });
    expect(browsers.body.browsers).toEqual([]);
  });
});
