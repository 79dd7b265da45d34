/**
 * Names of the environment variables through which the CDK stack tells a function where its
 * resources are. Declared once here, read by `aws.ts` and set by the constructs in `lib/`.
 */
export const ENVIRONMENT = {
  /** The secret holding the server keys (`lib/constructs/app-keys.ts`). */
  appKeysSecretArn: 'APP_KEYS_SECRET_ARN',
  /** The secret CloudFront sends in `x-origin-verify` (`lib/constructs/origin-verify.ts`). */
  originVerifySecretArn: 'ORIGIN_VERIFY_SECRET_ARN',
  /** The site's address (`https://…`), whose host name is the WebAuthn relying party; the second-factor function only. */
  siteUrl: 'SITE_URL',
} as const;

/** A required environment variable; a missing one is a deployment error, named in the message. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Variable d'environnement manquante: ${name}`);
  return value;
}

/** The same, read on first use: only the functions that need a variable are given it. */
export const lazyEnv =
  (name: string): (() => string) =>
  () =>
    requiredEnv(name);
