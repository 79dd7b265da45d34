import type { FormObject, FormValue } from './form';

/** The body of a Stripe API error, as the SDK reads it. */
export interface StripeErrorBody {
  readonly type: 'invalid_request_error' | 'api_error' | 'idempotency_error';
  readonly message: string;
  readonly param?: string;
  readonly code?: string;
  readonly doc_url?: string;
}

/** An API request the stand-in refuses, with Stripe's status and error body. */
export class StripeApiError extends Error {
  override name = 'StripeApiError';
  constructor(
    readonly statusCode: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

const invalidRequest = (statusCode: number, message: string, param?: string, code?: string) =>
  new StripeApiError(statusCode, {
    type: 'invalid_request_error',
    message,
    ...(param ? { param } : {}),
    ...(code ? { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}` } : {}),
  });

export const missingParam = (param: string) =>
  invalidRequest(400, `Missing required param: ${param}.`, param, 'parameter_missing');
export const unknownParam = (param: string) =>
  invalidRequest(400, `Received unknown parameter: ${param}`, param, 'parameter_unknown');
export const invalidParam = (param: string, message: string, code = 'parameter_invalid') =>
  invalidRequest(400, message, param, code);
export const noSuch = (kind: string, id: string, param = 'id') =>
  invalidRequest(404, `No such ${kind}: '${id}'`, param, 'resource_missing');
export const badRequest = (message: string, param?: string, code?: string) =>
  invalidRequest(400, message, param, code);
export const unauthorized = (message: string) => invalidRequest(401, message);

const pathOf = (prefix: string, key: string) => (prefix ? `${prefix}[${key}]` : key);

/**
 * Reads the parameters of one object of a request, refusing any key it was not told about, so
 * that a parameter the product sends by mistake fails here as it would at Stripe.
 */
export class Params {
  constructor(
    private readonly values: FormObject,
    private readonly prefix: string,
    allowed: readonly string[],
  ) {
    for (const key of Object.keys(values))
      if (!allowed.includes(key)) throw unknownParam(pathOf(prefix, key));
  }

  static of(value: FormValue | undefined, prefix: string, allowed: readonly string[]): Params {
    if (value === undefined) return new Params({}, prefix, allowed);
    if (typeof value !== 'object' || Array.isArray(value))
      throw invalidParam(prefix, `Invalid object: ${prefix} must be a hash.`, 'parameter_invalid_object');
    return new Params(value, prefix, allowed);
  }

  path(key: string): string {
    return pathOf(this.prefix, key);
  }

  has(key: string): boolean {
    return this.values[key] !== undefined;
  }

  raw(key: string): FormValue | undefined {
    return this.values[key];
  }

  string(key: string): string | undefined {
    const value = this.values[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string')
      throw invalidParam(
        this.path(key),
        `Invalid string: ${this.path(key)} must be a string.`,
        'parameter_invalid_string',
      );
    return value;
  }

  requiredString(key: string): string {
    const value = this.string(key);
    if (value === undefined || value === '') throw missingParam(this.path(key));
    return value;
  }

  oneOf<T extends string>(key: string, choices: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!choices.includes(value as T))
      throw invalidParam(
        this.path(key),
        `Invalid ${this.path(key)}: must be one of ${choices.join(', ')}`,
        'parameter_invalid_string',
      );
    return value as T;
  }

  integer(key: string, range: { min?: number; max?: number } = {}): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value))
      throw invalidParam(this.path(key), `Invalid integer: ${value}`, 'parameter_invalid_integer');
    const number = Number(value);
    if ((range.min !== undefined && number < range.min) || (range.max !== undefined && number > range.max)) {
      throw invalidParam(
        this.path(key),
        `Invalid integer: ${this.path(key)} must be between ${range.min ?? '-∞'} and ${range.max ?? '∞'}.`,
        'parameter_invalid_integer',
      );
    }
    return number;
  }

  number(key: string, range: { min: number; max: number }): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number) || number <= range.min || number > range.max) {
      throw invalidParam(this.path(key), `Invalid ${this.path(key)}: ${value}`, 'parameter_invalid_float');
    }
    return number;
  }

  boolean(key: string): boolean | undefined {
    const value = this.oneOf(key, ['true', 'false'] as const);
    return value === undefined ? undefined : value === 'true';
  }

  url(key: string, required: boolean): string | undefined {
    const value = required ? this.requiredString(key) : this.string(key);
    if (value === undefined) return undefined;
    try {
      const url = new URL(value.replace(/\{CHECKOUT_SESSION_ID\}/g, 'x'));
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    } catch {
      throw invalidParam(this.path(key), 'Not a valid URL', 'url_invalid');
    }
    return value;
  }

  /** Stripe's metadata: at most 50 string values, keys of at most 40 and values of at most 500 characters. */
  metadata(key: string): Record<string, string> {
    const value = this.values[key];
    if (value === undefined || value === '') return {};
    if (typeof value !== 'object' || Array.isArray(value))
      throw invalidParam(
        this.path(key),
        `Invalid object: ${this.path(key)} must be a hash.`,
        'parameter_invalid_object',
      );
    const entries = Object.entries(value);
    if (entries.length > 50) throw invalidParam(this.path(key), 'Metadata can have at most 50 keys.');
    const metadata: Record<string, string> = {};
    for (const [name, entry] of entries) {
      if (typeof entry !== 'string' || name.length > 40 || entry.length > 500) {
        throw invalidParam(`${this.path(key)}[${name}]`, `Invalid metadata value for ${name}.`);
      }
      metadata[name] = entry;
    }
    return metadata;
  }

  /** The elements of an array parameter, each as an object or as a string. */
  array(key: string): FormValue[] {
    const value = this.values[key];
    if (value === undefined) return [];
    if (!Array.isArray(value))
      throw invalidParam(
        this.path(key),
        `Invalid array: ${this.path(key)} must be an array.`,
        'parameter_invalid_array',
      );
    value.forEach((element, index) => {
      if (element === undefined) throw missingParam(`${this.path(key)}[${index}]`);
    });
    return value;
  }

  /** `expand[]`, each entry among what the endpoint can expand. */
  expand(allowed: readonly string[]): Set<string> {
    const entries = this.array('expand');
    for (const entry of entries) {
      if (typeof entry !== 'string' || !allowed.includes(entry)) {
        throw invalidParam('expand', `This property cannot be expanded (${String(entry)}).`);
      }
    }
    return new Set(entries as string[]);
  }
}
