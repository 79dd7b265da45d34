import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Mailer, MailMessage } from '../../functions/domain/core/ports';

export interface OutboxMailerOptions {
  /** The folder the `.eml` files go to (created if missing, private to the user). */
  readonly directory: string;
  /** The sender written in each message. */
  readonly from: string;
  /** Announces each message (the local runtime prints it on the console). */
  readonly announce: (line: string) => void;
  readonly now?: () => Date;
}

/** A header value in RFC 2047 form when it is not plain ASCII (French subjects seldom are). */
function encodedWord(value: string): string {
  return /^[\x20-\x7e]*$/.test(value)
    ? value
    : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** A plain-text message in RFC 5322 form, body in UTF-8 with CRLF line ends. */
export function toEml(message: MailMessage, from: string, date: Date, messageId: string): string {
  const headers = [
    `From: ${from}`,
    `To: ${message.to}`,
    `Subject: ${encodedWord(message.subject)}`,
    `Date: ${date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${messageId}@localhost>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    // As SES writes a message's tags in the delivered message.
    ...(message.tags
      ? [
          `X-SES-MESSAGE-TAGS: ${Object.entries(message.tags)
            .map(([name, value]) => `${name}=${value}`)
            .join(', ')}`,
        ]
      : []),
  ];
  return `${headers.join('\r\n')}\r\n\r\n${message.text.replace(/\r?\n/g, '\r\n')}\r\n`;
}

/**
 * The local runtime's e-mail (ARCHITECTURE.md §3): one `.eml` file per message in an outbox
 * folder, which any mail client opens, each announced with its path and subject. The announcement
 * never carries the body: the licence key is only in the file.
 */
export class OutboxMailer implements Mailer {
  private readonly now: () => Date;

  constructor(private readonly options: OutboxMailerOptions) {
    this.now = options.now ?? (() => new Date());
  }

  async send(message: MailMessage): Promise<void> {
    const date = this.now();
    const id = randomUUID();
    const path = join(this.options.directory, `${date.toISOString().replace(/[:.]/g, '-')}-${id}.eml`);
    await mkdir(this.options.directory, { recursive: true, mode: 0o700 });
    // 0600: the message holds a licence key, a bearer secret.
    await writeFile(path, toEml(message, this.options.from, date, id), { mode: 0o600, flag: 'wx' });
    this.options.announce(
      `E-mail écrit dans la boîte d'envoi : ${path} — « ${message.subject} » pour ${message.to}`,
    );
  }
}
