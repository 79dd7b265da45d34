import type { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';

import { METRIC, type Metrics } from '../domain/core/metrics';
import type { Logger } from '../domain/core/ports';

/**
 * How long a secret's value is kept before Secrets Manager is asked again: a rotated secret (a
 * new Stripe key, a new webhook signing secret, a new session key) is in use within 5 minutes,
 * without a deployment, while a busy function still reads it about once per 5 minutes.
 */
export const SECRET_MAX_AGE_SECONDS = 300;

/** A secret the function needs could not be read, is empty, or holds no usable value. */
export class SecretUnavailableError extends Error {
  override readonly name = 'SecretUnavailableError';
}

/** Where the secrets are read, and what a failure to read one is reported to. */
export interface SecretReading {
  /** Powertools Parameters' Secrets Manager provider: it keeps each value `maxAge` seconds. */
  readonly provider: Pick<SecretsProvider, 'get'>;
  readonly metrics: Metrics;
  readonly logger: Logger;
}

/**
 * A secret read on first use and kept `SECRET_MAX_AGE_SECONDS`, the same parsed object until it
 * changes; a failure is counted, logged by name only and thrown in French, and the next call reads again.
 * @param name what the secret is, for the logs and the message (`clé API Stripe`)
 */
export function cachedSecret<T>(
  reading: SecretReading,
  name: string,
  secretId: () => string,
  parse: (value: string) => T,
): () => Promise<T> {
  let pending: Promise<T> | undefined;
  let last: { readonly raw: string; readonly parsed: T } | undefined;

  const fail = (message: string, cause?: unknown): SecretUnavailableError => {
    const root = cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause;
    reading.metrics.count(METRIC.secretUnavailable);
    reading.logger.error('Secret indisponible', {
      secret: name,
      errorName: root instanceof Error ? root.name : undefined,
    });
    return new SecretUnavailableError(message, { cause });
  };

  const read = async (): Promise<T> => {
    let raw: unknown;
    try {
      raw = await reading.provider.get(secretId(), { maxAge: SECRET_MAX_AGE_SECONDS });
    } catch (error) {
      const root = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      throw fail(
        `Secret ${name} illisible (${root instanceof Error ? root.name : 'erreur inconnue'})`,
        error,
      );
    }
    if (typeof raw !== 'string' || raw.trim() === '') {
      throw fail(`Secret ${name} vide : sa valeur reste à renseigner (docs/operations.md)`);
    }
    if (last?.raw === raw) return last.parsed;
    let parsed: T;
    try {
      parsed = parse(raw);
    } catch (error) {
      // The parser's message names what was expected, never the value.
      throw fail(error instanceof Error ? error.message : `Secret ${name} invalide`, error);
    }
    last = { raw, parsed };
    return parsed;
  };

  return () => {
    pending ??= read().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
