/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracketed paths
 * (`line_items[0][price_data][currency]=eur`), the same in the query string of GET and DELETE.
 * Every leaf is a string, as Stripe receives it; the endpoints convert and validate.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/** A parameter path that is not well formed (`a[b`, a key used as both a value and an object). */
export class FormEncodingError extends Error {
  override name = 'FormEncodingError';
  constructor(readonly param: string) {
    super(`Invalid parameter: ${param}`);
  }
}

function segmentsOf(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new FormEncodingError(key);
  const rest = match[2] ?? '';
  return [match[1] as string, ...[...rest.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1] as string)];
}

function assign(target: FormObject | FormValue[], segments: string[], value: string, key: string): void {
  const [head, ...tail] = segments as [string, ...string[]];
  const isArray = Array.isArray(target);
  const index = head === '' && isArray ? target.length : head;
  if (isArray && !/^\d+$/.test(String(index))) throw new FormEncodingError(key);
  const container = target as Record<string, FormValue>;
  if (tail.length === 0) {
    if (container[index] !== undefined && typeof container[index] !== 'string')
      throw new FormEncodingError(key);
    container[index] = value;
    return;
  }
  const nextIsArray = tail[0] === '' || /^\d+$/.test(tail[0] as string);
  const existing = container[index];
  if (existing === undefined) container[index] = nextIsArray ? [] : {};
  else if (typeof existing === 'string' || Array.isArray(existing) !== nextIsArray)
    throw new FormEncodingError(key);
  assign(container[index] as FormObject | FormValue[], tail, value, key);
}

/** Parses a form body or query string into nested objects and arrays of strings. */
export function parseStripeForm(encoded: string): FormObject {
  const result: FormObject = {};
  for (const [key, value] of new URLSearchParams(encoded)) assign(result, segmentsOf(key), value, key);
  return result;
}
