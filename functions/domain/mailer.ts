/** One plain-text e-mail. Only the recipient's own data goes in it, never another secret. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/**
 * Sends e-mail: SES in AWS, an outbox folder of `.eml` files in the local runtime. Sending is
 * at-least-once; the billing service decides, with conditional writes, that a message is sent once.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
