import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';

import { LawyerRepository } from '../../../../functions/data/directory/lawyers';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { HealthWriteRepository } from '../../../../functions/data/health/health-writes';
import type { LawyerRecord, WorkflowRecord } from '../../../../functions/domain/directory/ports';
import { automationHealthOf, healthAlertsOf } from '../../../../functions/runtime/services/health';
import { OutboxMailer } from '../../../../lib/local/outbox-mailer';
import { HEALTH_MESSAGES } from '../../../../shared/health-messages';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { lawyerRecord, uniqueEmail, workflowRecord } from '../../../support/records';

const PAUSE = { failures: 5, lastMessage: 'Erreur serveur', httpStatus: 500 } as const;
const DEPLOYMENT_ADDRESS = 'astreinte@cabinet.test';

/**
 * Who reads each health alert, as the local runtime captures it: one `.eml` file per message in
 * the outbox. The lawyer's goes to his main e-mail, not the Google mailbox the assistant processes;
 * the admin's to the address of /admin/settings, else the deployment's, else to nobody.
 */
describe('health alerts reach a reader', () => {
  let app: TestApp;
  let outbox: string;
  let lawyer: LawyerRecord;
  let workflow: WorkflowRecord;

  beforeEach(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    outbox = await mkdtemp(join(tmpdir(), 'outbox-'));
    lawyer = lawyerRecord({ email: uniqueEmail('google'), mainEmail: uniqueEmail('cabinet') });
    await new LawyerRepository(app.table).create(lawyer);
    workflow = workflowRecord({ lawyerEmail: lawyer.email });
  });
  afterEach(async () => {
    await rm(outbox, { recursive: true, force: true });
    await disposeTestApp(app);
  });

  /** The alerts of a world whose deployment set `adminAlertEmail` (or none). */
  const alerts = (adminAlertEmail?: string) => {
    const mailer = new OutboxMailer({
      directory: outbox,
      from: 'Assistant <no-reply@localhost>',
      announce: () => {},
    });
    return healthAlertsOf({
      ...app,
      mail: { mailer, sender: 'Assistant <no-reply@localhost>', publicUrl: () => 'http://localhost:3000' },
      ...(adminAlertEmail ? { adminAlertEmail } : {}),
    });
  };
  /** Each captured message as (recipient, subject), read back from its `.eml` file. */
  const captured = async () => {
    const files = (await readdir(outbox).catch(() => [])).filter((file) => file.endsWith('.eml'));
    const messages = await Promise.all(files.map((file) => readFile(join(outbox, file), 'utf8')));
    return messages
      .map((eml) => ({
        to: /^To: (.*)$/m.exec(eml)?.[1]?.trim(),
        subject: Buffer.from(/^Subject: =\?UTF-8\?B\?(.*)\?=$/m.exec(eml)?.[1] ?? '', 'base64').toString(),
      }))
      .sort((a, b) => String(a.to).localeCompare(String(b.to)));
  };
  const subject = () => HEALTH_MESSAGES.email.pausedSubject(workflow.name);

  it("sends the lawyer's alert to his main e-mail and the admin's to the deployment's address", async () => {
    await alerts(DEPLOYMENT_ADDRESS).paused(workflow, PAUSE);
    expect(await captured()).toEqual(
      [
        { to: DEPLOYMENT_ADDRESS, subject: subject() },
        { to: lawyer.mainEmail, subject: subject() },
      ].sort((a, b) => a.to.localeCompare(b.to)),
    );
  });

  it("sends the lawyer's alert to his Google e-mail only when he has no main e-mail", async () => {
    const google = lawyerRecord({ email: uniqueEmail('seul'), mainEmail: '' });
    await new LawyerRepository(app.table).create(google);
    await alerts(DEPLOYMENT_ADDRESS).paused(
      workflowRecord({ lawyerEmail: google.email, name: 'Relances' }),
      PAUSE,
    );
    expect((await captured()).map(({ to }) => to)).toContain(google.email);
  });

  it('sends the admin’s alert to the address set on /admin/settings rather than the deployment’s', async () => {
    await new HealthWriteRepository(app.table).saveSettings(
      { pauseAfterFailures: null, alertEmail: 'veille@cabinet.test', dailyDigest: false },
      app.clock.now().toISOString(),
    );
    await alerts(DEPLOYMENT_ADDRESS).paused(workflow, PAUSE);
    expect((await captured()).map(({ to }) => to).sort()).toEqual(
      [lawyer.mainEmail, 'veille@cabinet.test'].sort(),
    );
  });

  it('with no admin address at all, sends the lawyer his alert and the admin none (never no-reply@localhost)', async () => {
    await alerts().paused(workflow, PAUSE);
    expect((await captured()).map(({ to }) => to)).toEqual([lawyer.mainEmail]);
    expect(app.logger.lines.join('\n')).toContain('Alerte administrateur sans destinataire');
  });

  it("sends the daily digest to the deployment's address, and none when there is no address", async () => {
    await new HealthWriteRepository(app.table).saveSettings(
      { pauseAfterFailures: null, alertEmail: null, dailyDigest: true },
      app.clock.now().toISOString(),
    );
    await new WorkflowRepository(app.table).create(workflow);
    await automationHealthOf(app).callsEnded([
      {
        workflow,
        call: {
          trigger: 'manual',
          outcome: 'failed',
          attempt: 1,
          startedAt: app.clock.now().toISOString(),
          durationMs: 10,
          dueAt: null,
          httpStatus: 500,
          message: 'Erreur serveur',
        },
      },
    ]);
    await alerts().dailyDigest();
    expect(await captured()).toEqual([]);
    await alerts(DEPLOYMENT_ADDRESS).dailyDigest();
    expect(await captured()).toEqual([
      { to: DEPLOYMENT_ADDRESS, subject: HEALTH_MESSAGES.email.digestSubject(1) },
    ]);
  });
});
