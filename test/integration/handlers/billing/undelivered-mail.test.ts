import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { LawyerRepository } from '../../../../functions/data/directory/lawyers';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { licenseMailTags } from '../../../../functions/domain/billing/undelivered-mail';
import { createUndeliveredMailHandler } from '../../../../functions/handlers/billing/undelivered-mail';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { createSignedInLawyer, issueAndSignIn } from '../../../support/directory';
import { sesBounce } from '../../../support/mail';

const complaint = (tags: Readonly<Record<string, string>>) => {
  const event = sesBounce(tags);
  return {
    ...event,
    'detail-type': 'Email Complaint Received',
    detail: {
      eventType: 'Complaint',
      mail: event.detail.mail,
      complaint: {
        complainedRecipients: [{ emailAddress: 'x@y.fr' }],
        timestamp: '2026-11-27T11:00:00.000Z',
        feedbackId: 'f',
      },
    },
  };
};

describe('undelivered-mail: SES bounces and complaints of licence e-mails', () => {
  let app: TestApp;
  let handler: (event: unknown) => Promise<unknown>;
  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    handler = createUndeliveredMailHandler(app);
  });
  afterAll(async () => disposeTestApp(app));

  it('marks the licence and the lawyer holding it e-mail non délivré, once however often SES says it', async () => {
    const admin = await issueAndSignIn(app, 'admin');
    const { lawyer, keyHash } = await createSignedInLawyer(app, admin.token);

    expect(await handler(sesBounce(licenseMailTags(keyHash)))).toBe('recorded');
    expect(await handler(sesBounce(licenseMailTags(keyHash)))).toBe('recorded');

    expect((await new LicenseRepository(app.table).getByHash(keyHash))?.licenseEmailUndeliveredAt).toBe(
      '2026-11-27T10:00:04.000Z',
    );
    expect((await new LawyerRepository(app.table).getById(lawyer.id))?.licenseEmailUndeliveredAt).toBe(
      '2026-11-27T10:00:04.000Z',
    );
    expect(app.metrics.countOf('EmailBounced')).toBe(2);
    expect(app.logger.lines.join('\n')).not.toContain('acheteur@cabinet-inconnu.fr');
    expect(app.logger.lines.join('\n')).not.toContain(keyHash);
  });

  it('records a complaint as well', async () => {
    const admin = await issueAndSignIn(app, 'admin');
    const { keyHash } = await createSignedInLawyer(app, admin.token);
    expect(await handler(complaint(licenseMailTags(keyHash)))).toBe('recorded');
    expect((await new LicenseRepository(app.table).getByHash(keyHash))?.licenseEmailUndeliveredAt).toBe(
      '2026-11-27T11:00:00.000Z',
    );
  });

  it('leaves other e-mails, deleted licences and unreadable events alone, without throwing', async () => {
    expect(await handler(sesBounce({}))).toBe('not-a-licence-mail');
    expect(await handler(sesBounce(licenseMailTags('aGFzaC1pbmNvbm51')))).toBe('licence-gone');
    expect(await handler({ 'detail-type': 'Email Bounced', detail: {} })).toBe('unreadable');
  });
});
