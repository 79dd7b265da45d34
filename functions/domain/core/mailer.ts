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

/** E-mail beyond billing (the health alerts): the mailer, its sender, and the site for links. */
export interface MailPorts {
  readonly mailer: Mailer;
  /** The sender of the product's e-mails (`MAIL_FROM`), possibly with a display name. */
  readonly sender: string;
  /** The site's public origin (`https://…`, no trailing slash). */
  readonly publicUrl: () => string;
}

/** The bare address of a sender written `Name <address>` (or already bare). */
export const addressOf = (sender: string) => sender.match(/<([^>]+)>/)?.[1]?.trim() ?? sender.trim();
