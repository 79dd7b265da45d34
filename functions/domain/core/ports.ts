/*
 * What every area needs from the world it runs in. The composition roots (`runtime/`) hand in an
 * implementation: Powertools in Lambda, memory or a fake in tests.
 */

/** The time source; `sleep` is here so that tests and the local runtime control waiting too. */
export interface Clock {
  now(): Date;
  sleep(milliseconds: number): Promise<void>;
}

/** Structured logs. Callers pass facts, never a body, a header, a key or a token. */
export interface Logger {
  /** Routine detail, shown only at `LOG_LEVEL=debug` (locally) or in a DEBUG stage. */
  debug(message: string, facts?: Record<string, unknown>): void;
  info(message: string, facts?: Record<string, unknown>): void;
  warn(message: string, facts?: Record<string, unknown>): void;
  error(message: string, facts?: Record<string, unknown>): void;
}

/** One plain-text e-mail. Only the recipient's own data goes in it, never another secret. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** SES message tags (names and values of [A-Za-z0-9_-]): they come back with a bounce or complaint. */
  readonly tags?: Readonly<Record<string, string>>;
}

/**
 * Sends e-mail: SES in AWS, an outbox folder of `.eml` files locally. Sending is at-least-once;
 * the services decide, with conditional writes, that a message is sent once.
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

/** One page of a list and the cursor of the next one (null on the last page). */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

/**
 * A read started before the caller's session was re-read, from what his token claims: its reply,
 * and whose data it read (an owner's e-mail; null for everyone's, an admin's read). Whoever uses it
 * first checks that the session re-read gives the same.
 */
export interface ReadAhead<T> {
  readonly reply: Promise<T>;
  readonly readFor: string | null;
}

/**
 * A create sent with an `Idempotency-Key`: the key (already scoped to its caller and route), a
 * hash of the request it came with, and the status its reply is sent with.
 */
export interface ReplyKey {
  readonly key: string;
  readonly requestHash: string;
  readonly statusCode: number;
}

/** The first reply to a create, kept in the create's own transaction: a retry gets it back. */
export interface FirstReply extends ReplyKey {
  readonly body: unknown;
  /** When it was first answered (it is kept a day). */
  readonly at: string;
}

/** The first replies kept, read back when a create is sent again with the same key. */
export interface FirstReplies {
  get(key: string): Promise<FirstReply | null>;
}
