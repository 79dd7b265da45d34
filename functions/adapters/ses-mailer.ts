import { type SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';

import type { Mailer, MailMessage } from '../domain/mailer';

/** The sender with the product's name shown, unless the configured value already names one. */
export const senderOf = (from: string) => (from.includes('<') ? from : `Assistant IA juridique <${from}>`);

/**
 * E-mail through Amazon SES (API v2, SendEmail): plain text, UTF-8, from the sender of the
 * deployment (`MAIL_FROM`, an address of the verified identity the function may send as).
 */
export class SesMailer implements Mailer {
  /** @param from the sender address, read on first use (only the billing functions have it) */
  constructor(
    private readonly client: SESv2Client,
    private readonly from: () => string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: senderOf(this.from()),
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
          },
        },
      }),
    );
  }
}
