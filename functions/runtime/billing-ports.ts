import type { Payments } from '../domain/billing/ports';
import type { Mailer } from '../domain/core/ports';

/** What the billing handlers need from the world beyond the table, keys, clock and logger. */
export interface BillingPorts {
  /** The payment provider, built on first use (in AWS its keys come from Secrets Manager). */
  readonly payments: () => Promise<Payments>;
  readonly mailer: Mailer;
  /** The site's public origin (`https://…`, no trailing slash): Stripe return URLs, e-mail links. */
  readonly publicUrl: () => string;
}

/** The billing ports of a composition root; a root without them cannot serve a billing call. */
export function billingPortsOf(deps: { readonly billing?: BillingPorts }): BillingPorts {
  if (!deps.billing) throw new Error('Facturation non configurée dans cet environnement');
  return deps.billing;
}

/**
 * A Stripe key read from its secret: a value that is not a key (the secret was created empty and
 * ops have not set it yet) is a deployment error, reported without the value.
 */
export function stripeKeyOf(prefixes: readonly string[], what: string): (stored: string) => string {
  return (stored) => {
    const value = stored.trim();
    if (!prefixes.some((prefix) => value.startsWith(prefix)))
      throw new Error(`Secret Stripe non configuré : ${what} attendu (voir docs/billing.md)`);
    return value;
  };
}
