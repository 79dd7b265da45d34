import { randomUUID } from 'node:crypto';

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';

import { AUDIT_LIST } from '../../../../functions/data/directory/audit';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { readShardedList } from '../../../../functions/data/table/sharded-list';
import { issueLicense } from '../../../../functions/domain/identity/licenses';
import { API_HANDLERS } from '../../../../functions/handlers';
import { createLicenseKeyVault } from '../../../../functions/security/license-key-vault';
import { SECOND_FACTOR } from '../../../../shared/constants';
import { MESSAGES } from '../../../../shared/messages';
import { ROUTES, type RouteName } from '../../../../shared/routes';
import type {
  EnrolmentReply,
  PasskeyOptionsReply,
  SecondFactorStatus,
  TotpEnrolment,
  VerifySecondFactorReply,
} from '../../../../shared/schemas/second-factor';
import type { VerifyLicenseReply } from '../../../../shared/schemas/session';
import {
  apiEvent,
  createTestApp,
  disposeTestApp,
  invoke,
  TEST_RELYING_PARTY,
  type TestApp,
} from '../../../support/app';
import { type CallOptions, callRoute, createSignedInLawyer, signIn } from '../../../support/directory';
import { awsError, tableWithFaults } from '../../../support/faults';
import { SoftwarePasskey } from '../../../support/software-passkey';

/** A signed session token: three base64url parts. */
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const FIFTEEN_MINUTES = SECOND_FACTOR.stepUpMaxAgeSeconds * 1000;

/** The code an authenticator app shows for `secret` at the test clock's time (or `offsetSteps` later). */
function codeOf(app: TestApp, secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: app.clock.now().getTime() + offsetSteps * 30_000,
  });
}

describe('second factor', () => {
  let app: TestApp;

  const call = <T = Record<string, unknown>>(name: RouteName, token: string, options: CallOptions = {}) =>
    callRoute<T>(app, name, { ...options, token });

  /** A fresh admin licence, signed in with its key: its reply and key. */
  async function newAdmin() {
    const { licenseKey, record } = await issueLicense(
      new LicenseRepository(app.table),
      createLicenseKeyVault(app.keys),
      { licenseType: 'admin', userEmail: null },
      app.clock.now().toISOString(),
    );
    return { licenseKey, keyHash: record.keyHash, reply: await signIn(app, licenseKey) };
  }

  /** A fresh admin enrolled with TOTP: his key, secret, recovery codes and full session. */
  async function enrolledAdmin() {
    const admin = await newAdmin();
    const pending = admin.reply.token!;
    const { body: enrolment } = await call<TotpEnrolment>('startTotpEnrolment', pending);
    const { body } = await call<EnrolmentReply>('confirmTotpEnrolment', pending, {
      body: { code: codeOf(app, enrolment.secret) },
    });
    // The next code: the first one's time step is used up.
    app.clock.advance(30_000);
    return {
      ...admin,
      secret: enrolment.secret,
      recoveryCodes: body.recoveryCodes,
      token: body.session!.token!,
    };
  }

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'), { requireSecondFactor: true });
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  beforeEach(() => {
    // Every test starts well past the previous one's time steps and attempt windows.
    app.clock.advance(60 * 60 * 1000);
  });

  describe('the first sign-in of an admin licence', () => {
    it('gives a pending session that asks for enrolment and that only the second-factor calls accept', async () => {
      const { reply } = await newAdmin();

      expect(reply).toMatchObject({
        valid: true,
        licenseType: 'admin',
        secondFactor: { step: 'enrol', methods: [] },
      });
      expect(Date.parse(reply.expiresAt!) - app.clock.now().getTime()).toBe(
        SECOND_FACTOR.pendingLifetimeSeconds * 1000,
      );
      const refused = await call('listLawyers', reply.token!);
      expect(refused).toMatchObject({
        statusCode: 401,
        body: { error: MESSAGES.secondFactor.pendingSession },
      });
      const status = await call<SecondFactorStatus>('secondFactorStatus', reply.token!);
      expect(status.body).toMatchObject({
        required: true,
        enrolled: false,
        passkeys: [],
        recoveryCodesLeft: 0,
      });
    });

    it('enrols TOTP from a QR code: a wrong first code is refused, a right one gives 10 recovery codes and a full session', async () => {
      const { reply, keyHash } = await newAdmin();
      const pending = reply.token!;

      const { statusCode, body: enrolment } = await call<TotpEnrolment>('startTotpEnrolment', pending);
      expect(statusCode).toBe(200);
      expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
      expect(enrolment.otpauthUri).toContain(`secret=${enrolment.secret}`);
      expect(enrolment.qrCodeDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(enrolment.qrCodeDataUrl.split(',')[1]!, 'base64').toString()).toContain('<svg');

      const wrongCode = String((Number(codeOf(app, enrolment.secret)) + 1) % 1_000_000).padStart(6, '0');
      const wrong = await call('confirmTotpEnrolment', pending, { body: { code: wrongCode } });
      expect(wrong).toMatchObject({ statusCode: 400, body: { error: 'Code invalide' } });

      const { statusCode: confirmed, body } = await call<EnrolmentReply>('confirmTotpEnrolment', pending, {
        body: { code: codeOf(app, enrolment.secret) },
      });
      expect(confirmed).toBe(200);
      expect(body.recoveryCodes).toHaveLength(10);
      expect(new Set(body.recoveryCodes).size).toBe(10);
      for (const code of body.recoveryCodes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
      expect(body.session).toMatchObject({
        valid: true,
        licenseType: 'admin',
        displayName: 'Administrateur',
      });
      expect(body.session?.secondFactor).toBeUndefined();

      // The full session works, the pending one is over.
      expect((await call('listLawyers', body.session!.token!)).statusCode).toBe(200);
      expect((await call('secondFactorStatus', pending)).statusCode).toBe(401);

      // At rest: the secret only encrypted, the recovery codes only hashed.
      const { Item } = await app.table.doc.send(
        new GetCommand({ TableName: app.table.name, Key: { PK: `LICENSE#${keyHash}`, SK: 'SECOND_FACTOR' } }),
      );
      const stored = JSON.stringify(Item, (_, value) => (value instanceof Set ? [...value] : value));
      expect(stored).not.toContain(enrolment.secret);
      for (const code of body.recoveryCodes) {
        expect(stored).not.toContain(code);
        expect(stored).not.toContain(code.replace('-', ''));
      }
      expect([...((Item?.recoveryCodes as Set<string> | undefined) ?? [])]).toHaveLength(10);
    });

    it('refuses to enrol a new factor from a pending session once the licence has one', async () => {
      const admin = await enrolledAdmin();
      const { reply } = { reply: await signIn(app, admin.licenseKey) };

      expect(reply.secondFactor).toEqual({ step: 'verify', methods: ['totp', 'recovery'] });
      const started = await call('startTotpEnrolment', reply.token!);
      expect(started).toMatchObject({
        statusCode: 403,
        body: { error: MESSAGES.secondFactor.alreadyEnrolled },
      });
      const options = await call('passkeyRegistrationOptions', reply.token!);
      expect(options.statusCode).toBe(403);
    });
  });

  describe('signing in with a factor', () => {
    it('completes a pending sign-in with the current TOTP code and refuses the same code again (replay)', async () => {
      const admin = await enrolledAdmin();
      const first = await signIn(app, admin.licenseKey);
      const code = codeOf(app, admin.secret);

      const { statusCode, body } = await call<VerifySecondFactorReply>('verifySecondFactor', first.token!, {
        body: { method: 'totp', code },
      });
      expect(statusCode).toBe(200);
      expect(body.session).toMatchObject({ valid: true, licenseType: 'admin' });
      expect((await call('listAudit', body.session!.token!)).statusCode).toBe(200);

      const second = await signIn(app, admin.licenseKey);
      const replay = await call('verifySecondFactor', second.token!, { body: { method: 'totp', code } });
      expect(replay).toMatchObject({ statusCode: 400, body: { error: 'Code invalide' } });
      // The previous step's code is within the drift window but older than the last one used.
      const earlier = await call('verifySecondFactor', second.token!, {
        body: { method: 'totp', code: codeOf(app, admin.secret, -1) },
      });
      expect(earlier.statusCode).toBe(400);
      app.clock.advance(30_000);
      const next = await call('verifySecondFactor', second.token!, {
        body: { method: 'totp', code: codeOf(app, admin.secret) },
      });
      expect(next.statusCode).toBe(200);
    });

    it('accepts a recovery code once, typed in any case and without its dash', async () => {
      const admin = await enrolledAdmin();
      const recoveryCode = admin.recoveryCodes[3]!;

      const first = await signIn(app, admin.licenseKey);
      const used = await call<VerifySecondFactorReply>('verifySecondFactor', first.token!, {
        body: { method: 'recovery', code: recoveryCode.replace('-', ' ').toLowerCase() },
      });
      expect(used.statusCode).toBe(200);
      expect(used.body.session?.token).toMatch(JWT);

      const second = await signIn(app, admin.licenseKey);
      const again = await call('verifySecondFactor', second.token!, {
        body: { method: 'recovery', code: recoveryCode },
      });
      expect(again).toMatchObject({ statusCode: 400, body: { error: 'Code invalide' } });
      const status = await call<SecondFactorStatus>('secondFactorStatus', used.body.session!.token!);
      expect(status.body.recoveryCodesLeft).toBe(9);
    });

    it('counts wrong codes per licence and refuses every code, even a right one, once too many were wrong', async () => {
      const admin = await enrolledAdmin();
      const pending = (await signIn(app, admin.licenseKey)).token!;

      const wrongCodes = Array.from({ length: SECOND_FACTOR.codeThrottle.maxFailures }, (_, index) =>
        String(index).padStart(6, '0'),
      ).filter((code) => code !== codeOf(app, admin.secret));
      // Sent together: the atomic count lets none of them past the limit.
      const replies = await Promise.all(
        [...wrongCodes, '999999', '999998'].map((code) =>
          call('verifySecondFactor', pending, { body: { method: 'totp', code } }),
        ),
      );
      const statuses = replies.map((reply) => reply.statusCode).sort();
      expect(statuses.filter((status) => status === 429)).toHaveLength(
        replies.length - SECOND_FACTOR.codeThrottle.maxFailures,
      );

      const right = await call('verifySecondFactor', pending, {
        body: { method: 'totp', code: codeOf(app, admin.secret) },
      });
      expect(right).toMatchObject({
        statusCode: 429,
        body: { error: MESSAGES.secondFactor.tooManyAttempts },
      });
      // Another session of the same licence is refused too: the count is the licence's.
      const other = (await signIn(app, admin.licenseKey)).token!;
      expect(
        (
          await call('verifySecondFactor', other, {
            body: { method: 'totp', code: codeOf(app, admin.secret) },
          })
        ).statusCode,
      ).toBe(429);

      // Once the window is over (the pending sessions with it), a new sign-in passes again.
      app.clock.advance(SECOND_FACTOR.codeThrottle.windowSeconds * 1000);
      const fresh = (await signIn(app, admin.licenseKey)).token!;
      const later = await call('verifySecondFactor', fresh, {
        body: { method: 'totp', code: codeOf(app, admin.secret) },
      });
      expect(later.statusCode).toBe(200);
    });

    it('rejects malformed codes with a French message before counting them', async () => {
      const admin = await enrolledAdmin();
      const pending = (await signIn(app, admin.licenseKey)).token!;

      const reply = await call('verifySecondFactor', pending, { body: { method: 'totp', code: '12ab56' } });

      expect(reply).toMatchObject({ statusCode: 400, body: { error: 'Code invalide' } });
      const missing = await call('verifySecondFactor', pending, { body: { method: 'totp' } });
      expect(missing).toMatchObject({ statusCode: 400, body: { error: MESSAGES.secondFactor.codeRequired } });
    });
  });

  describe('passkeys', () => {
    it('registers a passkey at the first sign-in and signs in with it; a replayed answer is refused', async () => {
      const { reply, licenseKey, keyHash } = await newAdmin();
      const passkey = new SoftwarePasskey({ rpId: TEST_RELYING_PARTY.id, origin: TEST_RELYING_PARTY.origin });

      const { body: registration } = await call<PasskeyOptionsReply>(
        'passkeyRegistrationOptions',
        reply.token!,
      );
      expect(registration.options).toMatchObject({ rp: { id: 'localhost' }, attestation: 'none' });
      const registered = await call<EnrolmentReply>('registerPasskey', reply.token!, {
        body: { credential: passkey.register(registration.options) },
      });
      expect(registered.statusCode).toBe(200);
      expect(registered.body.recoveryCodes).toHaveLength(10);
      expect(registered.body.session?.token).toMatch(JWT);

      const next = await signIn(app, licenseKey);
      expect(next.secondFactor).toEqual({ step: 'verify', methods: ['passkey', 'recovery'] });
      const { body: authentication } = await call<PasskeyOptionsReply>(
        'passkeyAuthenticationOptions',
        next.token!,
      );
      expect(authentication.options).toMatchObject({ allowCredentials: [{ id: passkey.id }] });
      const answer = passkey.authenticate(authentication.options);
      const verified = await call<VerifySecondFactorReply>('verifySecondFactor', next.token!, {
        body: { method: 'passkey', credential: answer },
      });
      expect(verified.statusCode).toBe(200);
      expect(verified.body.session?.licenseType).toBe('admin');

      // The challenge was taken by the first answer: the same answer cannot serve twice.
      const another = await signIn(app, licenseKey);
      const replayed = await call('verifySecondFactor', another.token!, {
        body: { method: 'passkey', credential: answer },
      });
      expect(replayed).toMatchObject({
        statusCode: 400,
        body: { error: MESSAGES.secondFactor.challengeExpired },
      });

      // The public key is stored as the library returns it; the counter moved on.
      const { Item } = await app.table.doc.send(
        new GetCommand({ TableName: app.table.name, Key: { PK: `LICENSE#${keyHash}`, SK: 'SECOND_FACTOR' } }),
      );
      expect(Item?.passkeys).toEqual([expect.objectContaining({ id: passkey.id, counter: 2 })]);
    });

    it('refuses an answer signed for another site or by an unknown passkey', async () => {
      const { reply, licenseKey } = await newAdmin();
      const passkey = new SoftwarePasskey({ rpId: TEST_RELYING_PARTY.id, origin: TEST_RELYING_PARTY.origin });
      const { body: registration } = await call<PasskeyOptionsReply>(
        'passkeyRegistrationOptions',
        reply.token!,
      );
      const phished = await call('registerPasskey', reply.token!, {
        body: { credential: passkey.register(registration.options, 'https://assistant-juridique.example') },
      });
      expect(phished).toMatchObject({
        statusCode: 400,
        body: { error: MESSAGES.secondFactor.invalidPasskey },
      });

      const { body: again } = await call<PasskeyOptionsReply>('passkeyRegistrationOptions', reply.token!);
      const enrolled = await call<EnrolmentReply>('registerPasskey', reply.token!, {
        body: { credential: passkey.register(again.options) },
      });
      expect(enrolled.statusCode).toBe(200);

      const next = await signIn(app, licenseKey);
      const { body: authentication } = await call<PasskeyOptionsReply>(
        'passkeyAuthenticationOptions',
        next.token!,
      );
      const stranger = new SoftwarePasskey({
        rpId: TEST_RELYING_PARTY.id,
        origin: TEST_RELYING_PARTY.origin,
      });
      const refused = await call('verifySecondFactor', next.token!, {
        body: { method: 'passkey', credential: stranger.authenticate(authentication.options) },
      });
      expect(refused).toMatchObject({
        statusCode: 400,
        body: { error: MESSAGES.secondFactor.invalidPasskey },
      });
    });
  });

  describe('step-up before sensitive actions', () => {
    it('asks for the factor again when the last check is older than 15 minutes, then lets the action through', async () => {
      const admin = await enrolledAdmin();
      const lawyer = await createSignedInLawyer(app, admin.token);
      const reveal = () => call('revealLawyerSecrets', admin.token, { params: { id: lawyer.lawyer.id } });

      expect((await reveal()).statusCode).toBe(200);
      app.clock.advance(FIFTEEN_MINUTES + 1000);
      const asked = await reveal();
      expect(asked).toMatchObject({
        statusCode: 403,
        body: { error: MESSAGES.secondFactor.stepUpRequired, code: 'SECOND_FACTOR_REQUIRED' },
      });
      expect((await call('createPromoCode', admin.token)).body).toMatchObject({
        code: 'SECOND_FACTOR_REQUIRED',
      });
      expect((await call('deleteLawyer', admin.token, { params: { id: lawyer.lawyer.id } })).statusCode).toBe(
        403,
      );
      // Not sensitive: still served.
      expect((await call('listLawyers', admin.token)).statusCode).toBe(200);

      const stepUp = await call<VerifySecondFactorReply>('verifySecondFactor', admin.token, {
        body: { method: 'totp', code: codeOf(app, admin.secret) },
      });
      expect(stepUp.statusCode).toBe(200);
      expect(stepUp.body).toEqual({ verifiedAt: app.clock.now().toISOString() });
      expect((await reveal()).statusCode).toBe(200);
    });

    it('does not ask an admin licence without any factor where the environment does not require one', async () => {
      const relaxed = await createTestApp(inject('dynamoEndpoint'));
      try {
        const { licenseKey } = await issueLicense(
          new LicenseRepository(relaxed.table),
          createLicenseKeyVault(relaxed.keys),
          { licenseType: 'admin', userEmail: null },
          relaxed.clock.now().toISOString(),
        );
        const reply: VerifyLicenseReply = await signIn(relaxed, licenseKey);
        expect(reply.secondFactor).toBeUndefined();
        relaxed.clock.advance(FIFTEEN_MINUTES * 4);
        expect((await callRoute(relaxed, 'createPromoCode', { token: reply.token! })).statusCode).not.toBe(
          403,
        );
      } finally {
        await disposeTestApp(relaxed);
      }
    });
  });

  describe("a firm's licence", () => {
    it('enrols a factor from its settings, which its next sign-ins then require', async () => {
      const admin = await enrolledAdmin();
      const lawyer = await createSignedInLawyer(app, admin.token);
      const before = await call<SecondFactorStatus>('secondFactorStatus', lawyer.token);
      expect(before.body).toMatchObject({ required: false, enrolled: false });

      const { body: enrolment } = await call<TotpEnrolment>('startTotpEnrolment', lawyer.token);
      const { body } = await call<EnrolmentReply>('confirmTotpEnrolment', lawyer.token, {
        body: { code: codeOf(app, enrolment.secret) },
      });
      expect(body.recoveryCodes).toHaveLength(10);
      expect(body.session).toBeUndefined();
      // His session stays, now with its factor passed.
      const after = await call<SecondFactorStatus>('secondFactorStatus', lawyer.token);
      expect(after.body).toMatchObject({
        required: true,
        enrolled: true,
        totp: true,
        verifiedAt: app.clock.now().toISOString(),
      });

      const next = await signIn(app, lawyer.licenseKey);
      expect(next.secondFactor).toEqual({ step: 'verify', methods: ['totp', 'recovery'] });
      expect((await call('getProfile', next.token!)).statusCode).toBe(401);
    });

    it('replaces an existing factor only after a recent check', async () => {
      const admin = await enrolledAdmin();
      app.clock.advance(FIFTEEN_MINUTES + 1000);

      const refused = await call('startTotpEnrolment', admin.token);
      expect(refused).toMatchObject({ statusCode: 403, body: { code: 'SECOND_FACTOR_REQUIRED' } });
      await call('verifySecondFactor', admin.token, {
        body: { method: 'totp', code: codeOf(app, admin.secret) },
      });
      const { body: enrolment } = await call<TotpEnrolment>('startTotpEnrolment', admin.token);
      app.clock.advance(30_000);
      const { body } = await call<EnrolmentReply>('confirmTotpEnrolment', admin.token, {
        body: { code: codeOf(app, enrolment.secret) },
      });
      // Not a first factor: the recovery codes stay the ones given at the first enrolment.
      expect(body.recoveryCodes).toEqual([]);
      app.clock.advance(30_000);
      const next = await signIn(app, admin.licenseKey);
      const old = await call('verifySecondFactor', next.token!, {
        body: { method: 'totp', code: codeOf(app, admin.secret) },
      });
      expect(old.statusCode).toBe(400);
    });
  });

  describe('reset', () => {
    it("lets an admin reset another licence's factor: audited, its sessions ended, enrolment asked again", async () => {
      const admin = await enrolledAdmin();
      const other = await enrolledAdmin();
      const otherSession = other.token;

      const reset = await call('resetSecondFactor', admin.token, { body: { licenseKey: other.licenseKey } });

      expect(reset).toMatchObject({ statusCode: 200, body: { success: true } });
      expect((await call('secondFactorStatus', otherSession)).statusCode).toBe(401);
      const next = await signIn(app, other.licenseKey);
      expect(next.secondFactor).toEqual({ step: 'enrol', methods: [] });
      // The stored entry itself, every attribute, not only what the trail's page shows.
      const { items } = await readShardedList(app.table, AUDIT_LIST, { order: 'newest first', limit: 1 });
      expect(items[0]).toMatchObject({ action: 'license.second-factor.reset', target: 'license:admin' });
      expect(JSON.stringify(items)).not.toContain(other.keyHash);
    });

    it("resets a lawyer's factor, named by his id on the trail, and refuses an admin's own reset and unknown keys", async () => {
      const admin = await enrolledAdmin();
      const lawyer = await createSignedInLawyer(app, admin.token);
      const { body: enrolment } = await call<TotpEnrolment>('startTotpEnrolment', lawyer.token);
      await call('confirmTotpEnrolment', lawyer.token, { body: { code: codeOf(app, enrolment.secret) } });

      expect(
        (await call('resetSecondFactor', admin.token, { body: { licenseKey: lawyer.licenseKey } }))
          .statusCode,
      ).toBe(200);
      expect((await signIn(app, lawyer.licenseKey)).secondFactor).toBeUndefined();

      const own = await call('resetSecondFactor', admin.token, { body: { licenseKey: admin.licenseKey } });
      expect(own).toMatchObject({ statusCode: 400, body: { error: MESSAGES.secondFactor.ownReset } });
      const unknown = await call('resetSecondFactor', admin.token, {
        body: { licenseKey: `NOTARY-${randomUUID()}` },
      });
      expect(unknown).toMatchObject({
        statusCode: 404,
        body: { error: MESSAGES.secondFactor.licenseNotFound },
      });
    });

    it('removes the factor and writes its entry in one transaction: both, or neither', async () => {
      const admin = await enrolledAdmin();
      const refused = await enrolledAdmin();
      const reset = await enrolledAdmin();
      const resetEntries = async () =>
        (await readShardedList(app.table, AUDIT_LIST, { order: 'newest first', limit: 100 })).items.filter(
          (item) => item.action === 'license.second-factor.reset',
        ).length;
      const resetOn = (table: TestApp['table'], licenseKey: string) =>
        invoke(
          API_HANDLERS['second-factor']({ ...app, table }),
          apiEvent('POST', ROUTES.resetSecondFactor.path, {
            routePath: ROUTES.resetSecondFactor.path,
            token: admin.token,
            body: { licenseKey },
          }),
        );
      const before = await resetEntries();

      // A transaction refused: the factor stays, and no entry says it went.
      const failed = await resetOn(
        tableWithFaults(app.table, { transactWrite: () => Promise.reject(awsError('InternalServerError')) }),
        refused.licenseKey,
      );
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      expect((await signIn(app, refused.licenseKey)).secondFactor).toMatchObject({ step: 'verify' });
      expect(await resetEntries()).toBe(before);

      // Every lone put refused: the reset still goes through with its entry (written with it).
      const done = await resetOn(
        tableWithFaults(app.table, { put: () => Promise.reject(awsError('InternalServerError')) }),
        reset.licenseKey,
      );
      expect(done.statusCode).toBe(200);
      expect((await signIn(app, reset.licenseKey)).secondFactor).toEqual({ step: 'enrol', methods: [] });
      expect(await resetEntries()).toBe(before + 1);
    });

    it('is itself a sensitive action', async () => {
      const admin = await enrolledAdmin();
      const other = await enrolledAdmin();
      app.clock.advance(FIFTEEN_MINUTES + 1000);

      const reset = await call('resetSecondFactor', admin.token, { body: { licenseKey: other.licenseKey } });

      expect(reset).toMatchObject({ statusCode: 403, body: { code: 'SECOND_FACTOR_REQUIRED' } });
    });
  });

  it('never logs a code, a secret or a key', async () => {
    const admin = await enrolledAdmin();
    const pending = (await signIn(app, admin.licenseKey)).token!;
    await call('verifySecondFactor', pending, { body: { method: 'totp', code: '000000' } });
    await call('verifySecondFactor', pending, {
      body: { method: 'recovery', code: admin.recoveryCodes[0]! },
    });

    const logs = app.logger.lines.join('\n');
    expect(logs).not.toContain(admin.secret);
    expect(logs).not.toContain(admin.licenseKey);
    for (const code of admin.recoveryCodes) expect(logs).not.toContain(code);
  });
});
