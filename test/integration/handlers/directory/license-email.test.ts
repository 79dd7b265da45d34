import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { LawyerRepository } from '../../../../functions/data/directory/lawyers';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { LICENSE_EMAIL_RESEND_INTERVAL_MS } from '../../../../functions/domain/billing/license-email';
import { licenseMailTags } from '../../../../functions/domain/billing/undelivered-mail';
import { issueLicense } from '../../../../functions/domain/identity/licenses';
import { API_HANDLERS } from '../../../../functions/handlers';
import { createUndeliveredMailHandler } from '../../../../functions/handlers/billing/undelivered-mail';
import { createLicenseKeyVault } from '../../../../functions/security/license-key-vault';
import { EMAIL_MESSAGES } from '../../../../shared/email-messages';
import { MESSAGES } from '../../../../shared/messages';
import { ROUTES, routePath } from '../../../../shared/routes';
import type { AuditPage, LawyerSaveReply, LicenseEmailResent } from '../../../../shared/schemas/directory';
import type { Lawyer } from '../../../../shared/schemas/lawyer';
import {
  apiEvent,
  createTestApp,
  disposeTestApp,
  invoke,
  MemoryMailer,
  type TestApp,
} from '../../../support/app';
import { callRoute, issueAndSignIn, lawyerFields } from '../../../support/directory';
import { awsError, tableWithFaults } from '../../../support/faults';
import { sesBounce } from '../../../support/mail';
import { PUBLIC_URL } from '../../../support/payments';

describe('POST /api/lawyers/{id}/license-email: the admin sends a licence key again', () => {
  let app: TestApp;
  let mailer: MemoryMailer;
  let admin: string;
  const vault = () => createLicenseKeyVault(app.keys);

  beforeAll(async () => {
    mailer = new MemoryMailer();
    app = {
      ...(await createTestApp(inject('dynamoEndpoint'))),
      // Sending a key reaches no payment provider.
      billing: {
        payments: async () => {
          throw new Error('Stripe ne doit pas être appelé');
        },
        mailer,
        publicUrl: () => PUBLIC_URL,
      },
    };
    admin = (await issueAndSignIn(app, 'admin', 'direction@cabinet.fr')).token;
  });

  afterAll(async () => disposeTestApp(app));

  const resend = (id: string, token = admin) =>
    callRoute<LicenseEmailResent | { error: string }>(app, 'resendLicenseEmail', { token, params: { id } });

  /** A lawyer created by the admin whose licence e-mail SES reported undelivered. */
  async function undeliveredLawyer(fields: Record<string, unknown> = {}) {
    const { body } = await callRoute<LawyerSaveReply>(app, 'saveLawyer', {
      token: admin,
      body: lawyerFields(fields),
    });
    // Replies show the key masked: the admin reveals it, as the lists let him.
    const licenseKey = (
      await callRoute<{ licenseKey: string }>(app, 'revealLawyerLicenseKey', {
        token: admin,
        params: { id: body.lawyer.id },
      })
    ).body.licenseKey;
    const keyHash = vault().hash(licenseKey);
    const at = app.clock.now().toISOString();
    await new LicenseRepository(app.table).markLicenseEmail(keyHash, at, at);
    await new LawyerRepository(app.table).markLicenseEmail(body.lawyer.id, at, at);
    return { lawyer: body.lawyer, licenseKey, keyHash };
  }

  const lawyerAsAdminSees = async (id: string) =>
    (await callRoute<Lawyer>(app, 'getLawyer', { token: admin, params: { id } })).body;

  it('sends the key to the licence address, tagged for bounces, clears the mark and audits it', async () => {
    const { lawyer, licenseKey, keyHash } = await undeliveredLawyer();
    expect((await lawyerAsAdminSees(lawyer.id)).licenseEmailUndeliveredAt).not.toBeNull();
    app.clock.advance(60_000);

    const reply = await resend(lawyer.id);

    expect(reply).toMatchObject({ statusCode: 200, body: { sentTo: lawyer.email } });
    const sent = mailer.to(lawyer.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      subject: EMAIL_MESSAGES.licenseKeyResent.subject,
      tags: licenseMailTags(keyHash),
    });
    expect(sent[0]?.text).toContain(`Votre clé de licence : ${licenseKey}`);
    expect(sent[0]?.text).toContain(`${PUBLIC_URL}/login`);
    expect(
      (await new LicenseRepository(app.table).getByHash(keyHash))?.licenseEmailUndeliveredAt,
    ).toBeUndefined();
    expect((await lawyerAsAdminSees(lawyer.id)).licenseEmailUndeliveredAt).toBeNull();
    const audit = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '1' } });
    expect(audit.body.entries[0]).toMatchObject({
      action: 'license.email.resend',
      target: `lawyer:${lawyer.id}`,
      actorEmail: 'direction@cabinet.fr',
      at: app.clock.now().toISOString(),
    });
    const logs = app.logger.lines.join('\n');
    expect(logs).toContain('Clé de licence renvoyée par e-mail');
    expect(logs).not.toContain(licenseKey);
    expect(logs).not.toContain(lawyer.email);
  });

  it('marks the licence again when the e-mail sent again bounces too', async () => {
    const { lawyer, keyHash } = await undeliveredLawyer();
    await resend(lawyer.id);
    const [message] = mailer.to(lawyer.email);

    const outcome = await createUndeliveredMailHandler(app)(sesBounce(message?.tags ?? {}));

    expect(outcome).toBe('recorded');
    expect((await new LicenseRepository(app.table).getByHash(keyHash))?.licenseEmailUndeliveredAt).toBe(
      '2026-11-27T10:00:04.000Z',
    );
    expect((await lawyerAsAdminSees(lawyer.id)).licenseEmailUndeliveredAt).toBe('2026-11-27T10:00:04.000Z');
  });

  it('sends one e-mail for a double click, and again only once the interval has passed', async () => {
    const { lawyer } = await undeliveredLawyer();

    const replies = await Promise.all([resend(lawyer.id), resend(lawyer.id)]);
    const soon = await resend(lawyer.id);

    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 429]);
    expect(soon).toMatchObject({ statusCode: 429, body: { error: MESSAGES.licenseEmail.tooSoon } });
    expect(mailer.to(lawyer.email)).toHaveLength(1);

    app.clock.advance(LICENSE_EMAIL_RESEND_INTERVAL_MS + 1_000);
    expect((await resend(lawyer.id)).statusCode).toBe(200);
    expect(mailer.to(lawyer.email)).toHaveLength(2);
  });

  it('keeps the mark and lets the admin try again at once when the e-mail could not be sent', async () => {
    const { lawyer, keyHash } = await undeliveredLawyer();
    mailer.failures = 1;

    const failed = await resend(lawyer.id);

    expect(failed.statusCode).toBe(500);
    expect(mailer.to(lawyer.email)).toHaveLength(0);
    expect((await new LicenseRepository(app.table).getByHash(keyHash))?.licenseEmailUndeliveredAt).toEqual(
      expect.any(String),
    );
    expect((await lawyerAsAdminSees(lawyer.id)).licenseEmailUndeliveredAt).not.toBeNull();
    expect((await resend(lawyer.id)).statusCode).toBe(200);
    expect(mailer.to(lawyer.email)).toHaveLength(1);
  });

  it('refuses, in French and sending nothing, a licence without an address and an unknown lawyer', async () => {
    const withoutAddress = await issueLicense(
      new LicenseRepository(app.table),
      vault(),
      { licenseType: 'lawyer', userEmail: null },
      app.clock.now().toISOString(),
    );
    const { lawyer } = await undeliveredLawyer({ licenseKey: withoutAddress.licenseKey });
    const sentBefore = mailer.sent.length;

    const noAddress = await resend(lawyer.id);
    const unknown = await resend('00000000-0000-4000-8000-000000000000');

    expect(noAddress).toMatchObject({ statusCode: 409, body: { error: MESSAGES.licenseEmail.noAddress } });
    expect(unknown).toMatchObject({ statusCode: 404, body: { error: MESSAGES.directory.lawyerNotFound } });
    expect(mailer.sent).toHaveLength(sentBefore);
  });

  it('is the admin’s alone', async () => {
    const { lawyer } = await undeliveredLawyer();
    const member = await issueAndSignIn(app, 'lawyer');

    expect((await resend(lawyer.id, member.token)).statusCode).toBe(403);
    expect(mailer.to(lawyer.email)).toHaveLength(0);
  });

  it('clears the mark and writes its entry together: a store refusing lone writes still records the resend', async () => {
    // Arrange: the lawyers function over a store that refuses every put made on its own.
    const { lawyer } = await undeliveredLawyer();
    app.clock.advance(60_000);
    const strict = API_HANDLERS.lawyers({
      ...app,
      table: tableWithFaults(app.table, { put: () => Promise.reject(awsError('InternalServerError')) }),
    });
    const path = routePath(ROUTES.resendLicenseEmail, { id: lawyer.id });

    // Act
    const reply = await invoke(
      strict,
      apiEvent('POST', path, {
        routePath: ROUTES.resendLicenseEmail.path,
        token: admin,
        pathParameters: { id: lawyer.id },
      }),
    );

    // Assert
    expect(reply.statusCode).toBe(200);
    expect((await lawyerAsAdminSees(lawyer.id)).licenseEmailUndeliveredAt).toBeNull();
    const audit = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '1' } });
    expect(audit.body.entries[0]).toMatchObject({
      action: 'license.email.resend',
      target: `lawyer:${lawyer.id}`,
    });
  });
});
