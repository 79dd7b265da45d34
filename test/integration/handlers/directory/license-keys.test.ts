import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';

import { SECOND_FACTOR } from '../../../../shared/constants';
import { maskLicenseKey } from '../../../../shared/license-key';
import { MESSAGES } from '../../../../shared/messages';
import type {
  AuditPage,
  LawyerList,
  LawyerLookupReply,
  LawyerSaveReply,
} from '../../../../shared/schemas/directory';
import type { Lawyer } from '../../../../shared/schemas/lawyer';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer, lawyerFields } from '../../../support/directory';
import { codeOf, enrolTotp, issueLicenseFor, signInFrom, verifyCode } from '../../../support/second-factor';

const STALE = (SECOND_FACTOR.stepUpMaxAgeSeconds + 60) * 1000;

/**
 * A licence key is a firm's credential: every reply to an admin shows it masked
 * (`NOTARY-••••1234`); one is revealed at a time, on demand, behind the second factor, as Google
 * credentials are; a reveal and a change of key go on the audit trail.
 */
describe('licence keys masked, revealed behind the step-up', () => {
  let app: TestApp;
  let admin: { token: string; secret: string };

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'), { requireSecondFactor: true });
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });
  beforeEach(async () => {
    app.clock.advance(60 * 60 * 1000);
    const license = await issueLicenseFor(app, 'admin', 'direction@cabinet.example');
    admin = await enrolTotp(app, (await signInFrom(app, license.licenseKey)).token!);
  });

  const trail = async () =>
    (await callRoute<AuditPage>(app, 'listAudit', { token: admin.token })).body.entries.map((entry) => ({
      action: entry.action,
      target: entry.target,
    }));

  it('shows every firm’s key masked in the lawyers list, a lawyer’s details and the look-up', async () => {
    // Arrange
    const lawyer = await createSignedInLawyer(app, admin.token);

    // Act
    const list = await callRoute<LawyerList>(app, 'listLawyers', { token: admin.token });
    const details = await callRoute<Lawyer>(app, 'getLawyer', {
      token: admin.token,
      params: { id: lawyer.lawyer.id },
    });
    const lookup = await callRoute<LawyerLookupReply>(app, 'lookupLawyer', {
      token: admin.token,
      body: { licenseKey: lawyer.licenseKey },
    });

    // Assert
    const masked = maskLicenseKey(lawyer.licenseKey);
    expect(masked).toMatch(/^NOTARY-••••[A-Z0-9]{4}$/);
    expect(list.body.lawyers.find((entry) => entry.id === lawyer.lawyer.id)?.licenseKey).toBe(masked);
    expect(details.body.licenseKey).toBe(masked);
    expect(lookup.body.lawyer?.licenseKey).toBe(masked);
    for (const reply of [list, details, lookup])
      expect(JSON.stringify(reply.body)).not.toContain(lawyer.licenseKey);
    // Himself, he sees his own key in full.
    const own = await callRoute<{ profile: Lawyer }>(app, 'getProfile', { token: lawyer.token });
    expect(own.body.profile.licenseKey).toBe(lawyer.licenseKey);
  });

  it('reveals one key on demand only after a recent second-factor check, and puts the reveal on the trail', async () => {
    // Arrange: the admin's last check is older than the step-up allows.
    const lawyer = await createSignedInLawyer(app, admin.token);
    app.clock.advance(STALE);

    // Act
    const refused = await callRoute(app, 'revealLawyerLicenseKey', {
      token: admin.token,
      params: { id: lawyer.lawyer.id },
    });
    expect((await verifyCode(app, admin.token, codeOf(app, admin.secret))).statusCode).toBe(200);
    const revealed = await callRoute(app, 'revealLawyerLicenseKey', {
      token: admin.token,
      params: { id: lawyer.lawyer.id },
    });

    // Assert
    expect(refused).toMatchObject({ statusCode: 403, body: { code: SECOND_FACTOR.stepUpErrorCode } });
    expect(revealed).toMatchObject({ statusCode: 200, body: { licenseKey: lawyer.licenseKey } });
    expect((await trail())[0]).toEqual({
      action: 'lawyer.license-key.reveal',
      target: `lawyer:${lawyer.lawyer.id}`,
    });
  });

  it('asks for the factor again before giving a lawyer another key, and puts the change on the trail', async () => {
    // Arrange
    const lawyer = await createSignedInLawyer(app, admin.token);
    app.clock.advance(STALE);
    const fields = lawyerFields({ ...lawyer.lawyer, email: lawyer.email, licenseKey: 'CABINET-MARTIN-2027' });

    // Act
    const refused = await callRoute(app, 'saveLawyer', { token: admin.token, body: fields });
    const unchanged = await callRoute(app, 'saveLawyer', {
      token: admin.token,
      body: lawyerFields({
        ...lawyer.lawyer,
        email: lawyer.email,
        licenseKey: undefined,
        officeName: 'Étude Martin',
      }),
    });
    expect((await verifyCode(app, admin.token, codeOf(app, admin.secret))).statusCode).toBe(200);
    // A second later than the save above: the trail orders entries of one instant by their ids.
    app.clock.advance(1_000);
    const changed = await callRoute<LawyerSaveReply>(app, 'saveLawyer', { token: admin.token, body: fields });

    // Assert: the other fields alone need no new check; the key does.
    expect(refused).toMatchObject({ statusCode: 403, body: { code: SECOND_FACTOR.stepUpErrorCode } });
    expect(unchanged.statusCode).toBe(200);
    expect(changed.statusCode).toBe(200);
    expect(changed.body.lawyer.licenseKey).toBe('CABINET-••••2027');
    // Both written with the save, in one transaction (same time: their order is the ids').
    const latest = (await trail()).slice(0, 2);
    expect(latest).toHaveLength(2);
    expect(latest).toEqual(
      expect.arrayContaining([
        { action: 'lawyer.update', target: `lawyer:${lawyer.lawyer.id}` },
        { action: 'lawyer.license-key.change', target: `lawyer:${lawyer.lawyer.id}` },
      ]),
    );
  });

  it('refuses a masked key sent back as a key, naming the field', async () => {
    // Arrange
    const lawyer = await createSignedInLawyer(app, admin.token);

    // Act
    const reply = await callRoute(app, 'saveLawyer', {
      token: admin.token,
      body: lawyerFields({ email: lawyer.email, licenseKey: lawyer.lawyer.licenseKey }),
    });

    // Assert
    expect(reply).toMatchObject({ statusCode: 400, body: { error: MESSAGES.lawyerSave.maskedLicenseKey } });
  });
});
