import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { LawyerRepository } from '../../../../functions/data/directory/lawyers';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { issueLicense } from '../../../../functions/domain/identity/licenses';
import { createLicenseKeyVault } from '../../../../functions/security/license-key-vault';
import { isGeneratedLicenseKey, maskLicenseKey } from '../../../../shared/license-key';
import { MESSAGES } from '../../../../shared/messages';
import type {
  AuditPage,
  LawyerList,
  LawyerLookupReply,
  LawyerSaveReply,
} from '../../../../shared/schemas/directory';
import type { Lawyer, LawyerSecrets } from '../../../../shared/schemas/lawyer';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import {
  callRoute,
  createSignedInLawyer,
  issueAndSignIn,
  lawyerFields,
  signIn,
  workflowFields,
} from '../../../support/directory';
import { scanTable } from '../../../support/records';

const PASSWORD = 'mot-de-passe-google-7Yq!';
const CLIENT_SECRET = 'GOCSPX-secret-client-4242';
const CREDENTIALS = {
  clientId: '1234.apps.googleusercontent.com',
  clientSecret: CLIENT_SECRET,
  redirectUri: '',
};

describe('lawyers API', () => {
  let app: TestApp;
  let admin: string;
  const vault = () => createLicenseKeyVault(app.keys);
  const save = (body: unknown) => callRoute<LawyerSaveReply>(app, 'saveLawyer', { token: admin, body });
  /** A lawyer's key in clear, as an admin reveals it (replies show it masked). */
  const reveal = async (id: string) =>
    (await callRoute<{ licenseKey: string }>(app, 'revealLawyerLicenseKey', { token: admin, params: { id } }))
      .body.licenseKey;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin', 'direction@cabinet.fr')).token;
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  describe('PUT /api/lawyers (save)', () => {
    it('creates a lawyer with a generated key, normalised as spec §5 says, who can sign in', async () => {
      const fields = lawyerFields({
        email: '  Jeanne.Durand.Cabinet@Gmail.com ',
        mainEmail: '',
        emailSignature: '',
        officeName: '',
        phoneNumber: '',
        googlePassword: '   ',
      });

      const { statusCode, body } = await save(fields);

      expect(statusCode).toBe(201);
      expect(body.created).toBe(true);
      expect(body.lawyer).toMatchObject({
        firstName: 'Camille',
        email: 'jeanne.durand.cabinet@gmail.com',
        mainEmail: 'jeanne.durand.cabinet@gmail.com',
        emailSignature: null,
        officeName: null,
        phoneNumber: null,
        reminderFrequency: 7,
        hasGooglePassword: false,
        hasGoogleCredentials: false,
      });
      const key = await reveal(body.lawyer.id);
      expect(isGeneratedLicenseKey(key)).toBe(true);
      expect(body.lawyer.licenseKey).toBe(maskLicenseKey(key));
      const license = await new LicenseRepository(app.table).getByHash(vault().hash(key));
      expect(license).toMatchObject({
        licenseType: 'lawyer',
        isActive: true,
        userEmail: 'jeanne.durand.cabinet@gmail.com',
      });

      const signedIn = await signIn(app, key);
      expect(signedIn).toMatchObject({
        valid: true,
        licenseType: 'lawyer',
        userEmail: 'jeanne.durand.cabinet@gmail.com',
        displayName: 'Camille Martin',
      });
    });

    it('creates a lawyer with the key given, issuing its licence when it has none', async () => {
      const { statusCode, body } = await save(lawyerFields({ licenseKey: 'CABINET-DURAND-2026' }));

      expect(statusCode).toBe(201);
      expect(body.lawyer.licenseKey).toBe('CABINET-••••2026');
      expect((await signIn(app, 'CABINET-DURAND-2026')).valid).toBe(true);
    });

    it("gives a new lawyer the key of a licence bought beforehand, leaving the licence's billing state alone", async () => {
      const bought = await issueLicense(
        new LicenseRepository(app.table),
        vault(),
        {
          licenseType: 'lawyer',
          userEmail: 'acheteur@example.com',
          subscriptionStatus: 'active',
          nextPaymentDue: '2026-12-22T10:00:00.000Z',
        },
        app.clock.now().toISOString(),
      );

      const { statusCode, body } = await save(lawyerFields({ licenseKey: bought.licenseKey }));

      expect(statusCode).toBe(201);
      expect(body.lawyer.licenseKey).toBe(maskLicenseKey(bought.licenseKey));
      expect(await new LicenseRepository(app.table).getByHash(bought.record.keyHash)).toEqual(bought.record);
      expect((await signIn(app, bought.licenseKey)).displayName).toBe('Camille Martin');
    });

    it("refuses an administrator's licence key for a lawyer", async () => {
      const adminLicense = await issueLicense(
        new LicenseRepository(app.table),
        vault(),
        { licenseType: 'admin', userEmail: null },
        app.clock.now().toISOString(),
      );

      const { statusCode, body } = await save(lawyerFields({ licenseKey: adminLicense.licenseKey }));

      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: MESSAGES.lawyerSave.notLawyerLicense });
    });

    it('updates the lawyer who has the same e-mail, keeping his id, key and creation date', async () => {
      const created = (await save(lawyerFields({ reminderFrequency: 3 }))).body.lawyer;
      app.clock.advance(60_000);

      const { statusCode, body } = await save({
        ...lawyerFields({ email: created.email.toUpperCase() }),
        lastName: 'Martin-Durand',
      });

      expect(statusCode).toBe(200);
      expect(body.created).toBe(false);
      expect(body.lawyer).toMatchObject({
        id: created.id,
        lastName: 'Martin-Durand',
        licenseKey: created.licenseKey,
        createdAt: created.createdAt,
        reminderFrequency: 7,
      });
      expect(body.lawyer.updatedAt).not.toBe(created.updatedAt);
    });

    it('updates the lawyer who has the same licence key; his e-mail and his workflows move together', async () => {
      const created = (await save(lawyerFields())).body.lawyer;
      const workflow = await callRoute<Workflow>(app, 'createWorkflow', {
        token: admin,
        body: workflowFields(created.email),
      });
      const newEmail = lawyerFields().email;

      const { statusCode, body } = await save(
        lawyerFields({ email: newEmail, licenseKey: await reveal(created.id) }),
      );

      expect(statusCode).toBe(200);
      expect(body.lawyer).toMatchObject({ id: created.id, email: newEmail });
      const lawyers = new LawyerRepository(app.table);
      expect(await lawyers.findByEmail(created.email)).toBeNull();
      expect((await lawyers.findByEmail(newEmail))?.id).toBe(created.id);
      const moved = await callRoute<Workflow>(app, 'getWorkflow', {
        token: admin,
        params: { id: workflow.body.id },
      });
      expect(moved.body.lawyerEmail).toBe(newEmail);
    });

    it.each([
      ['e-mail', (lawyer: { email: string }) => ({ email: lawyer.email.toUpperCase() })],
      ['licence key', (lawyer: { licenseKey: string | null }) => ({ licenseKey: lawyer.licenseKey })],
    ])(
      "'Nouvel avocat' (createOnly) with an existing lawyer's %s writes nothing and names him (409)",
      async (_, same) => {
        const created = (await save(lawyerFields({ firstName: 'Hélène' }))).body.lawyer;
        const inClear = { ...created, licenseKey: await reveal(created.id) };

        const { statusCode, body } = await save({
          ...lawyerFields({ firstName: 'Autre', officeName: 'Autre étude', ...same(inClear) }),
          createOnly: true,
        });

        expect(statusCode).toBe(409);
        expect(body).toEqual({
          error: MESSAGES.lawyerSave.alreadyExists('Hélène', 'Martin', created.email),
          existingLawyer: { id: created.id, firstName: 'Hélène', lastName: 'Martin', email: created.email },
        });
        const stored = await callRoute<Lawyer>(app, 'getLawyer', {
          token: admin,
          params: { id: created.id },
        });
        expect(stored.body).toMatchObject({ firstName: 'Hélène', officeName: created.officeName });
      },
    );

    it("refuses one lawyer's e-mail with another lawyer's licence key", async () => {
      const first = (await save(lawyerFields())).body.lawyer;
      const second = (await save(lawyerFields())).body.lawyer;

      const { statusCode, body } = await save(
        lawyerFields({ email: first.email, licenseKey: await reveal(second.id) }),
      );

      expect(statusCode).toBe(409);
      expect(body).toEqual({ error: MESSAGES.lawyerSave.conflict });
    });

    it('answers the French message of the first invalid field', async () => {
      const { statusCode, body } = await save(lawyerFields({ firstName: 'J' }));

      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: MESSAGES.validation.firstName });
    });
  });

  describe('Google password and credentials', () => {
    it('keeps them in the secret store only: flags in replies and table, never the values', async () => {
      const { body } = await save(
        lawyerFields({ googlePassword: `  ${PASSWORD} `, googleCredentials: CREDENTIALS }),
      );

      expect(body.lawyer).toMatchObject({ hasGooglePassword: true, hasGoogleCredentials: true });
      expect(app.lawyerSecrets.entries.get(body.lawyer.id)).toEqual({
        googlePassword: PASSWORD,
        googleCredentials: { ...CREDENTIALS, redirectUri: 'https://developers.google.com/oauthplayground' },
      });
      const list = await callRoute<LawyerList>(app, 'listLawyers', { token: admin });
      const one = await callRoute<Lawyer>(app, 'getLawyer', { token: admin, params: { id: body.lawyer.id } });
      const table = JSON.stringify(await scanTable(app.table));
      for (const text of [JSON.stringify(body), JSON.stringify(list.body), JSON.stringify(one.body), table]) {
        expect(text).not.toContain(PASSWORD);
        expect(text).not.toContain(CLIENT_SECRET);
      }
    });

    it('keeps a secret that a save leaves out, and clears one sent empty', async () => {
      const { lawyer } = (
        await save(lawyerFields({ googlePassword: PASSWORD, googleCredentials: CREDENTIALS }))
      ).body;

      const kept = await save(lawyerFields({ email: lawyer.email, officeName: 'Étude Martin' }));
      expect(kept.body.lawyer).toMatchObject({ hasGooglePassword: true, hasGoogleCredentials: true });
      expect(app.lawyerSecrets.entries.get(lawyer.id)?.googlePassword).toBe(PASSWORD);

      const cleared = await save(lawyerFields({ email: lawyer.email, googlePassword: '' }));
      expect(cleared.body.lawyer).toMatchObject({ hasGooglePassword: false, hasGoogleCredentials: true });
      expect(app.lawyerSecrets.entries.get(lawyer.id)).toMatchObject({ googlePassword: null });

      const blank = { clientId: ' ', clientSecret: '', redirectUri: '' };
      const none = await save(lawyerFields({ email: lawyer.email, googleCredentials: blank }));
      expect(none.body.lawyer).toMatchObject({ hasGooglePassword: false, hasGoogleCredentials: false });
      expect(app.lawyerSecrets.entries.has(lawyer.id)).toBe(false);
    });

    it('reveals them to an admin on request and records the reveal on the audit trail', async () => {
      const { lawyer } = (
        await save(lawyerFields({ googlePassword: PASSWORD, googleCredentials: CREDENTIALS }))
      ).body;
      app.clock.advance(60_000);

      const { statusCode, body } = await callRoute<LawyerSecrets>(app, 'revealLawyerSecrets', {
        token: admin,
        params: { id: lawyer.id },
      });

      expect(statusCode).toBe(200);
      expect(body).toEqual({
        googlePassword: PASSWORD,
        googleCredentials: { ...CREDENTIALS, redirectUri: 'https://developers.google.com/oauthplayground' },
      });
      const audit = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '1' } });
      expect(audit.body.entries[0]).toMatchObject({
        action: 'lawyer.secrets.reveal',
        target: `lawyer:${lawyer.id}`,
        actorEmail: 'direction@cabinet.fr',
        at: app.clock.now().toISOString(),
      });
    });

    it('reveals nothing of a lawyer without secrets', async () => {
      const { lawyer } = (await save(lawyerFields())).body;

      const { body } = await callRoute(app, 'revealLawyerSecrets', {
        token: admin,
        params: { id: lawyer.id },
      });

      expect(body).toEqual({ googlePassword: null, googleCredentials: null });
    });

    it('never writes them to a log line', () => {
      const logs = app.logger.lines.join('\n');
      expect(logs).not.toContain(PASSWORD);
      expect(logs).not.toContain(CLIENT_SECRET);
    });
  });

  describe('GET /api/lawyers and /api/lawyers/{id}', () => {
    it('lists every lawyer, newest first', async () => {
      app.clock.advance(60_000);
      const older = (await save(lawyerFields())).body.lawyer;
      app.clock.advance(60_000);
      const newer = (await save(lawyerFields())).body.lawyer;

      const { statusCode, body } = await callRoute<LawyerList>(app, 'listLawyers', { token: admin });

      expect(statusCode).toBe(200);
      expect(body.lawyers.slice(0, 2).map((lawyer) => lawyer.id)).toEqual([newer.id, older.id]);
    });

    it('reads one lawyer by id', async () => {
      const { lawyer } = (await save(lawyerFields())).body;

      const { statusCode, body } = await callRoute(app, 'getLawyer', {
        token: admin,
        params: { id: lawyer.id },
      });

      expect(statusCode).toBe(200);
      expect(body).toEqual(lawyer);
    });

    it.each([
      ['an unknown id', '7d0f1e0a-3f5e-4c1a-9a55-0c7c2b0f9b11'],
      ['an id that is not one', 'pas-un-identifiant'],
    ])('answers 404 with a French message for %s', async (_, id) => {
      const { statusCode, body } = await callRoute(app, 'getLawyer', { token: admin, params: { id } });

      expect(statusCode).toBe(404);
      expect(body).toEqual({ error: MESSAGES.directory.lawyerNotFound });
    });
  });

  describe('POST /api/lawyers/lookup (spec §5)', () => {
    it('finds a lawyer by his licence key', async () => {
      const { lawyer } = (await save(lawyerFields())).body;

      const { body } = await callRoute<LawyerLookupReply>(app, 'lookupLawyer', {
        token: admin,
        body: { licenseKey: await reveal(lawyer.id) },
      });

      expect(body).toEqual({ lawyer, email: lawyer.email });
    });

    it("falls back to the licence's e-mail when no lawyer holds the key", async () => {
      const { lawyer } = (await save(lawyerFields())).body;
      const second = await issueLicense(
        new LicenseRepository(app.table),
        vault(),
        { licenseType: 'lawyer', userEmail: lawyer.email },
        app.clock.now().toISOString(),
      );

      const { body } = await callRoute<LawyerLookupReply>(app, 'lookupLawyer', {
        token: admin,
        body: { licenseKey: second.licenseKey },
      });

      expect(body.lawyer?.id).toBe(lawyer.id);
    });

    it("shows the licence's e-mail when no lawyer is found", async () => {
      const license = await issueLicense(
        new LicenseRepository(app.table),
        vault(),
        { licenseType: 'lawyer', userEmail: 'sans.profil@example.com' },
        app.clock.now().toISOString(),
      );

      const { body } = await callRoute(app, 'lookupLawyer', {
        token: admin,
        body: { licenseKey: license.licenseKey },
      });

      expect(body).toEqual({ lawyer: null, email: 'sans.profil@example.com' });
    });

    it('lets a lawyer look himself up, by key or by e-mail, and nobody else', async () => {
      const me = await createSignedInLawyer(app, admin);
      const other = (await save(lawyerFields())).body.lawyer;

      const byKey = await callRoute<LawyerLookupReply>(app, 'lookupLawyer', {
        token: me.token,
        body: { licenseKey: me.licenseKey },
      });
      const byEmail = await callRoute<LawyerLookupReply>(app, 'lookupLawyer', {
        token: me.token,
        body: { email: me.email },
      });
      const theirs = await callRoute(app, 'lookupLawyer', { token: me.token, body: { email: other.email } });

      expect(byKey.body.lawyer?.id).toBe(me.lawyer.id);
      expect(byEmail.body.lawyer?.id).toBe(me.lawyer.id);
      expect(theirs).toMatchObject({ statusCode: 403, body: { error: MESSAGES.session.forbidden } });
    });

    it('asks for a key when given nothing to look up', async () => {
      const { statusCode, body } = await callRoute(app, 'lookupLawyer', { token: admin, body: {} });

      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: MESSAGES.login.keyRequired });
    });
  });
  describe('PUT /api/lawyers/{id}/license-type', () => {
    const setRole = (id: string, licenseType: string, token = admin) =>
      callRoute<{ licenseType: string }>(app, 'setLicenseRole', {
        token,
        params: { id },
        body: { licenseType },
      });
    /** His licence key in clear: replies show it masked, an admin reveals it. */
    const revealedKey = async (id: string) =>
      (
        await callRoute<{ licenseKey: string }>(app, 'revealLawyerLicenseKey', {
          token: admin,
          params: { id },
        })
      ).body.licenseKey;

    it("makes a lawyer's licence a notary's one and back, each change audited with it", async () => {
      const { lawyer } = (await save(lawyerFields())).body;
      const licenseKey = await revealedKey(lawyer.id);
      app.clock.advance(60_000);

      const roleOf = async () =>
        (
          await callRoute<{ licenseType: string }>(app, 'getLicenseRole', {
            token: admin,
            params: { id: lawyer.id },
          })
        ).body;
      expect(await roleOf()).toEqual({ licenseType: 'lawyer' });

      const toNotary = await setRole(lawyer.id, 'notary');

      expect(toNotary).toMatchObject({ statusCode: 200, body: { licenseType: 'notary' } });
      expect(await roleOf()).toEqual({ licenseType: 'notary' });
      expect(await signIn(app, licenseKey)).toMatchObject({ valid: true, licenseType: 'notary' });
      const licenses = new LicenseRepository(app.table);
      expect(await licenses.findByUserEmail(lawyer.email, 'notary')).toMatchObject({ licenseType: 'notary' });
      expect(await licenses.findByUserEmail(lawyer.email, 'lawyer')).toBeNull();
      const audit = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '1' } });
      expect(audit.body.entries[0]).toMatchObject({
        action: 'license.role.notary',
        target: `lawyer:${lawyer.id}`,
        actorEmail: 'direction@cabinet.fr',
        at: app.clock.now().toISOString(),
      });

      app.clock.advance(60_000);
      const back = await setRole(lawyer.id, 'lawyer');

      expect(back.body).toEqual({ licenseType: 'lawyer' });
      expect(await signIn(app, licenseKey)).toMatchObject({ valid: true, licenseType: 'lawyer' });
      const after = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '1' } });
      expect(after.body.entries[0]).toMatchObject({
        action: 'license.role.lawyer',
        target: `lawyer:${lawyer.id}`,
      });
    });

    it('writes nothing, not even an audit entry, when the type is already the one asked', async () => {
      const { lawyer } = (await save(lawyerFields())).body;
      const before = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '1' } });

      const reply = await setRole(lawyer.id, 'lawyer');

      expect(reply.body).toEqual({ licenseType: 'lawyer' });
      const after = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '1' } });
      expect(after.body.entries[0]?.id).toBe(before.body.entries[0]?.id);
    });

    it('refuses an administrator type, naming the field, and an unknown lawyer', async () => {
      const { lawyer } = (await save(lawyerFields())).body;

      const invalid = await setRole(lawyer.id, 'admin');
      const unknown = await setRole('00000000-0000-4000-8000-000000000000', 'notary');

      expect(invalid.statusCode).toBe(400);
      expect(JSON.stringify(invalid.body)).toContain(MESSAGES.licenseRole.invalid);
      expect(unknown.statusCode).toBe(404);
      expect(await signIn(app, await revealedKey(lawyer.id))).toMatchObject({ licenseType: 'lawyer' });
    });
  });
});
