import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SesMailer } from '../adapters/ses-mailer';
import { StripePayments } from '../adapters/stripe-payments';
import type { Mailer } from '../domain/mailer';
import type { Payments } from '../domain/payments';
import { cachedSecret, type SecretReading } from './cached-secret';
import { lazyEnv, requiredEnv } from './environment';
import { tracer } from './powertools';

/** What the billing handlers need from the world beyond the table, keys, clock and logger. */
export interface BillingPorts {
  /** The payment provider, built on first use (in AWS its keys come from Secrets Manager). */
  readonly payments: () => Promise<Payments>;
  readonly mailer: Mailer;
  /** The site's public origin (`https://…`, no trailing slash): Stripe return URLs, e-mail links. */
  readonly publicUrl: () => string;
}

/**
 * Names of the environment variables through which the CDK stack (`lib/constructs/billing.ts`)
 * tells a billing function where its resources are.
 */
export const BILLING_ENVIRONMENT = {
  /** The secret holding Stripe's secret API key (`sk_live_…` or `sk_test_…`). */
  stripeSecretKeyArn: 'STRIPE_SECRET_KEY_ARN',
  /** The secret holding the webhook endpoint's signing secret (`whsec_…`); the webhook function only. */
  stripeWebhookSecretArn: 'STRIPE_WEBHOOK_SECRET_ARN',
  /** The sender of the billing e-mails, an address of the SES identity. */
  mailFrom: 'MAIL_FROM',
  /** The site's public origin. */
  publicBaseUrl: 'PUBLIC_BASE_URL',
} as const;

/**
 * A Stripe key read from its secret: a value that is not a key (the secret was created empty and
 * ops have not set it yet) is a deployment error, reported without the value.
 */
export function stripeKeyOf(prefixes: readonly string[], what: string): (stored: string) => string {
  return (stored) => {
    const value = stored.trim();
    if (!prefixes.some((prefix) => value.startsWith(prefix)))
      throw new Error(`Secret Stripe non configuré : ${what} attendu (voir docs/billing-aws.md)`);
    return value;
  };
}

/** The site's origin from its configured value: an http(s) URL, without a trailing slash. */
export function publicOriginOf(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`Adresse publique du site invalide : ${value}`);
  return url.origin;
}

/**
 * The AWS side: Stripe's secret key (and, for the webhook function, its signing secret) from
 * Secrets Manager, SES for e-mail, the site's origin from the environment. Everything is read on
 * first use, so that the functions without billing never need it; the secrets are read again at
 * most every 5 minutes, and a new key builds a new Stripe client: a rolled key is picked up
 * without a deployment.
 */
export function awsBillingPorts(reading: SecretReading): BillingPorts {
  const apiKey = cachedSecret(
    reading,
    'de la clé API Stripe',
    lazyEnv(BILLING_ENVIRONMENT.stripeSecretKeyArn),
    stripeKeyOf(['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'], 'une clé secrète sk_…'),
  );
  const webhookSecret = cachedSecret(
    reading,
    'de signature du webhook Stripe',
    lazyEnv(BILLING_ENVIRONMENT.stripeWebhookSecretArn),
    stripeKeyOf(['whsec_'], 'un secret de signature whsec_…'),
  );
  let current: { key: string; signingSecret: string | undefined; payments: Payments } | undefined;
  return {
    payments: async () => {
      const [key, signingSecret] = await Promise.all([
        apiKey(),
        process.env[BILLING_ENVIRONMENT.stripeWebhookSecretArn] ? webhookSecret() : undefined,
      ]);
      if (current?.key !== key || current.signingSecret !== signingSecret) {
        current = {
          key,
          signingSecret,
          payments: new StripePayments({ apiKey: key, webhookSecret: signingSecret }),
        };
      }
      return current.payments;
    },
    mailer: new SesMailer(
      tracer.captureAWSv3Client(new SESv2Client({})),
      lazyEnv(BILLING_ENVIRONMENT.mailFrom),
      reading.metrics,
    ),
    publicUrl: () => publicOriginOf(requiredEnv(BILLING_ENVIRONMENT.publicBaseUrl)),
  };
}
