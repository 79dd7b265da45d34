import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { issueLicense } from '../../../../functions/domain/identity/licenses';
import { createLicenseKeyVault } from '../../../../functions/security/license-key-vault';
import { maskLicenseKey } from '../../../../shared/license-key';
import { MESSAGES } from '../../../../shared/messages';
import type { LicenseLookupReply } from '../../../../shared/schemas/directory';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, issueAndSignIn, type SignedIn } from '../../../support/directory';

describe('licences API', () => {
  let app: TestApp;
  let admin: string;
  let member: SignedIn;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
    member = await issueAndSignIn(app, 'lawyer');
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  describe('GET /api/licenses?userEmail=&licenseType=', () => {
    it('finds the licence of an e-mail and type for an admin, its key masked as in every list', async () => {
      const { statusCode, body } = await callRoute<LicenseLookupReply>(app, 'findLicenseByEmail', {
        token: admin,
        query: { userEmail: member.email, licenseType: 'lawyer' },
      });

      expect(statusCode).toBe(200);
      expect(body.license).toEqual({
        licenseKey: maskLicenseKey(member.licenseKey),
        licenseType: 'lawyer',
        userEmail: member.email,
        isActive: true,
        subscriptionStatus: 'active',
        nextPaymentDue: null,
        accessEndsAt: null,
      });
    });

    it('answers null when there is none, the type defaulting to lawyer', async () => {
      const { statusCode, body } = await callRoute(app, 'findLicenseByEmail', {
        token: admin,
        query: { userEmail: 'personne@example.com' },
      });

      expect(statusCode).toBe(200);
      expect(body).toEqual({ license: null });
    });

    it('gives a lawyer his own licence, of his type only', async () => {
      const own = await callRoute<LicenseLookupReply>(app, 'findLicenseByEmail', {
        token: member.token,
        query: { userEmail: member.email },
      });
      const otherType = await callRoute<LicenseLookupReply>(app, 'findLicenseByEmail', {
        token: member.token,
        query: { userEmail: member.email, licenseType: 'notary' },
      });

      expect(own.body.license?.licenseKey).toBe(member.licenseKey);
      expect(otherType.body.license).toBeNull();
    });

    it('refuses an e-mail that is not one', async () => {
      const { statusCode, body } = await callRoute(app, 'findLicenseByEmail', {
        token: admin,
        query: { userEmail: 'pas-un-email' },
      });

      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: MESSAGES.validation.email });
    });
  });

  describe('POST /api/licenses/find', () => {
    it('finds a licence by its key', async () => {
      const { statusCode, body } = await callRoute<LicenseLookupReply>(app, 'findLicenseByKey', {
        token: member.token,
        body: { licenseKey: member.licenseKey, licenseType: 'lawyer', activeOnly: true },
      });

      expect(statusCode).toBe(200);
      expect(body.license?.userEmail).toBe(member.email);
    });

    it('leaves out a licence of another type or, when asked, an inactive one', async () => {
      const vault = createLicenseKeyVault(app.keys);
      const inactive = await issueLicense(
        new LicenseRepository(app.table),
        vault,
        { licenseType: 'lawyer', userEmail: 'ancien.client@example.com' },
        app.clock.now().toISOString(),
      );
      await new LicenseRepository(app.table).updateState(
        inactive.record.keyHash,
        { isActive: false, subscriptionStatus: 'canceled', nextPaymentDue: null, accessEndsAt: null },
        app.clock.now().toISOString(),
      );
      const find = (body: Record<string, unknown>) =>
        callRoute<LicenseLookupReply>(app, 'findLicenseByKey', {
          token: admin,
          body: { licenseKey: inactive.licenseKey, ...body },
        });

      expect((await find({})).body.license?.isActive).toBe(false);
      expect((await find({ activeOnly: true })).body.license).toBeNull();
      expect((await find({ licenseType: 'notary' })).body.license).toBeNull();
    });

    it('answers null for a key that is no licence', async () => {
      const { body } = await callRoute(app, 'findLicenseByKey', {
        token: admin,
        body: { licenseKey: 'NOTARY-INCONNUE' },
      });

      expect(body).toEqual({ license: null });
    });

    it('asks for a key of at least 5 characters', async () => {
      const { statusCode, body } = await callRoute(app, 'findLicenseByKey', {
        token: admin,
        body: { licenseKey: 'abc' },
      });

      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: MESSAGES.login.keyRequired });
    });
  });
});
