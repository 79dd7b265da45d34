import { type SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { METRIC, type Metrics } from '../../domain/core/metrics';
import type { Mailer, MailMessage } from '../../domain/core/ports';

/** The sender with the product's name shown, unless the configured value already names one. */
export const senderOf = (from: string) => (from.includes('<') ? from : `Assistant IA juridique <${from}>`);

/** SES refused an e-mail (throttled after the SDK's retries, rejected, sender not allowed). */
export class MailRefusedError extends Error {
  override readonly name = 'MailRefusedError';
}

/**
 * E-mail through SES, plain text from the deployment's sender; every send is counted, and a refusal
 * is a `MailRefusedError` so the caller's work is retried (Stripe delivers its event again).
 */
export class SesMailer implements Mailer {
  /** @param from the sender address, read on first use (only the billing functions have it) */
  constructor(
    private readonly client: SESv2Client,
    private readonly from: () => string,
    private readonly metrics: Metrics,
    /** The SES configuration set, so that bounces and complaints are published and suppressed. */
    private readonly configurationSet: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    try {
      await this.client.send(
        new SendEmailCommand({
          FromEmailAddress: senderOf(this.from()),
          ConfigurationSetName: this.configurationSet,
          ...(message.tags
            ? { EmailTags: Object.entries(message.tags).map(([Name, Value]) => ({ Name, Value })) }
            : {}),
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    } catch (error) {
      this.metrics.count(METRIC.emailFailed);
      const reason = error instanceof Error ? error.name : 'erreur inconnue';
      throw new MailRefusedError(`Envoi de l’e-mail refusé par SES (${reason})`, { cause: error });
    }
    this.metrics.count(METRIC.emailSent);
  }
}
