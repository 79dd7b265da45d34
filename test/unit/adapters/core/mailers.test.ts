import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailRefusedError, SesMailer } from '../../../../functions/adapters/core/ses-mailer';
import { licenseKeyEmail } from '../../../../functions/domain/billing/emails';
import { METRIC, RecordedMetrics } from '../../../../functions/domain/core/metrics';
import { OutboxMailer } from '../../../../lib/local/outbox-mailer';

const LICENSE_KEY = 'NOTARY-AB12CD34';
const message = licenseKeyEmail({
  to: 'cabinet@exemple.fr',
  licenseKey: LICENSE_KEY,
  loginUrl: 'http://localhost:3000/login',
  amountPaidCents: 110_000,
});

describe('licence key e-mail: what was paid today', () => {
  it('states the amount charged as the licence plus the first month, to the cent', () => {
    expect(message.text).toContain(
      'Votre paiement de 1\u202f100,00\u00a0€ TTC (licence 950,00\u00a0€ + premier mois 150,00\u00a0€) a bien été reçu',
    );
    expect(message.text).toContain('150,00\u00a0€ TTC par mois');
  });

  it('says nothing was charged after a 100 % promo code, never that a payment was received', () => {
    const free = licenseKeyEmail({
      to: 'cabinet@exemple.fr',
      licenseKey: LICENSE_KEY,
      loginUrl: 'http://localhost:3000/login',
      amountPaidCents: 0,
    });

    expect(free.text).toContain("rien n'a été prélevé aujourd'hui");
    expect(free.text).not.toMatch(/paiement .*a bien été reçu/);
  });
});

describe('OutboxMailer', () => {
  let directory: string;
  let announced: string[];
  let mailer: OutboxMailer;

  beforeEach(async () => {
    directory = join(await mkdtemp(join(tmpdir(), 'outbox-')), 'outbox');
    announced = [];
    mailer = new OutboxMailer({
      directory,
      from: 'Assistant IA juridique <no-reply@localhost>',
      announce: (line) => announced.push(line),
      now: () => new Date('2026-11-22T10:00:00.000Z'),
    });
  });

  afterEach(() => rm(join(directory, '..'), { recursive: true, force: true }));

  it('writes one .eml file per message, readable by its owner only, with the French text', async () => {
    // Act
    await mailer.send(message);
    await mailer.send(message);

    // Assert
    const files = await readdir(directory);
    expect(files).toHaveLength(2);
    expect(files.every((file) => file.endsWith('.eml'))).toBe(true);
    const path = join(directory, files[0]!);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const eml = await readFile(path, 'utf8');
    expect(eml).toContain('To: cabinet@exemple.fr\r\n');
    expect(eml).toContain('Content-Type: text/plain; charset=utf-8\r\n');
    expect(eml).toContain(`Subject: =?UTF-8?B?${Buffer.from(message.subject).toString('base64')}?=\r\n`);
    expect(eml).toContain(`Votre clé de licence : ${LICENSE_KEY}`);
  });

  it('announces each message with its path and subject, never the licence key', async () => {
    // Act
    await mailer.send(message);

    // Assert
    const [file] = await readdir(directory);
    expect(announced).toHaveLength(1);
    expect(announced[0]).toContain(join(directory, file!));
    expect(announced[0]).toContain(message.subject);
    expect(announced[0]).not.toContain(LICENSE_KEY);
  });
});

describe('SesMailer', () => {
  it('sends the message as UTF-8 plain text from the configured sender, with the product name, under the configuration set', async () => {
    // Arrange
    const sent: unknown[] = [];
    const client = {
      send: async (command: { input: unknown }) => sent.push(command.input),
    } as unknown as SESv2Client;

    // Act
    await new SesMailer(
      client,
      () => 'licences@cabinet.example',
      new RecordedMetrics(),
      'AssistantJuridique-envois',
    ).send(message);

    // Assert
    expect(sent).toEqual([
      {
        FromEmailAddress: 'Assistant IA juridique <licences@cabinet.example>',
        // Every send: bounces and complaints are published and suppressed, reputation measured.
        ConfigurationSetName: 'AssistantJuridique-envois',
        Destination: { ToAddresses: ['cabinet@exemple.fr'] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
          },
        },
      },
    ]);
  });
});

describe('SesMailer under SES faults (aws-sdk-client-mock)', () => {
  const client = new SESv2Client({
    region: 'eu-west-3',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
    // No retry wait in the test: the SDK's own retries are SES's business, not ours.
    maxAttempts: 1,
  });
  const ses = mockClient(client);

  beforeEach(() => {
    ses.reset();
  });

  it('counts a sent e-mail', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const metrics = new RecordedMetrics();

    await new SesMailer(client, () => 'licences@cabinet.example', metrics, 'AssistantJuridique-envois').send(
      message,
    );

    expect(metrics.countOf(METRIC.emailSent)).toBe(1);
    expect(metrics.countOf(METRIC.emailFailed)).toBe(0);
  });

  it.each([
    ['throttled', 'TooManyRequestsException'],
    ['rejected', 'MessageRejected'],
    ['refused for the sender', 'AccessDeniedException'],
  ])('reports an e-mail SES %s in French and counts it, so the caller retries', async (_case, code) => {
    ses.on(SendEmailCommand).rejects(Object.assign(new Error(`${code} (simulé)`), { name: code }));
    const metrics = new RecordedMetrics();

    const failure = await new SesMailer(
      client,
      () => 'licences@cabinet.example',
      metrics,
      'AssistantJuridique-envois',
    )
      .send(message)
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(MailRefusedError);
    expect((failure as Error).message).toBe(`Envoi de l’e-mail refusé par SES (${code})`);
    expect((failure as Error).message).not.toContain(LICENSE_KEY);
    expect(metrics.countOf(METRIC.emailFailed)).toBe(1);
    expect(metrics.countOf(METRIC.emailSent)).toBe(0);
  });
});
