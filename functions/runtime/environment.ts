import type { FunctionNeeds } from '../needs';

/**
 * Every environment variable a function reads, named once: the CDK constructs set them
 * (`lib/constructs/function-needs.ts`), `readEnvironment` reads them at cold start. A function is
 * given exactly the variables of its declared needs (`variablesOf`).
 */
export const ENVIRONMENT = {
  /** The table (`table`). */
  tableName: 'TABLE_NAME',
  /** One secret per server key (`keys`). */
  sessionSigningKeyArn: 'SESSION_SIGNING_KEY_SECRET_ARN',
  licenseHashKeyArn: 'LICENSE_HASH_KEY_SECRET_ARN',
  licenseEncryptionKeyArn: 'LICENSE_ENCRYPTION_KEY_SECRET_ARN',
  /** The secret CloudFront sends in `x-origin-verify` (`originSecret`). */
  originVerifySecretArn: 'ORIGIN_VERIFY_SECRET_ARN',
  /** The name prefix of the lawyers' secrets (`lawyerSecrets`). */
  lawyerSecretsPrefix: 'LAWYER_SECRETS_PREFIX',
  /** The webhook queue (`webhookQueue`), and its dead-letter queue (`redrive`). */
  webhookQueueUrl: 'WEBHOOK_QUEUE_URL',
  webhookDeadLetterQueueUrl: 'WEBHOOK_DLQ_URL',
  /** The claimer function the tick invokes once per shard (`dueClaimers`). */
  dueClaimerFunctionName: 'DUE_CLAIMER_FUNCTION_NAME',
  /** The function that sends portal links, invoked asynchronously (`portalLinks`). */
  portalLinkSenderFunctionName: 'PORTAL_LINK_SENDER_FUNCTION_NAME',
  /** The webhook signing secret (`webhookSigning`). */
  webhookSecretArn: 'WEBHOOK_SECRET_ARN',
  /** Stripe's secret API key (`payments`) and the site's public origin for its return links. */
  stripeSecretKeyArn: 'STRIPE_SECRET_KEY_ARN',
  publicBaseUrl: 'PUBLIC_BASE_URL',
  /** The webhook endpoint's signing secret (`payments: 'webhook'`). */
  stripeWebhookSecretArn: 'STRIPE_WEBHOOK_SECRET_ARN',
  /** The sender of the e-mails, an address of the SES identity (`mailer`). */
  mailFrom: 'MAIL_FROM',
  /** The SES configuration set every send names: bounces, complaints, reputation (`mailer`). */
  mailConfigurationSet: 'MAIL_CONFIGURATION_SET',
  /** The publisher's legal details (JSON), at the foot of every e-mail (`mailer`). */
  legalDetails: 'LEGAL_DETAILS',
  /** The site's address (`https://…`), whose host name is the WebAuthn relying party (`relyingParty`). */
  siteUrl: 'SITE_URL',
  /** The admin's alert address of the deployment (`adminAlerts`); absent when none was given. */
  adminAlertEmail: 'ADMIN_ALERT_EMAIL',
  /** The exports bucket (`dataExports`) and the builder function a request starts (`request`). */
  exportBucketName: 'EXPORT_BUCKET_NAME',
  exportBuilderFunctionName: 'EXPORT_BUILDER_FUNCTION_NAME',
} as const;

export type EnvironmentKey = keyof typeof ENVIRONMENT;

/**
 * Powertools' settings, the same for every function whatever its needs (set by
 * `lib/constructs/app-function.ts`, read by Powertools itself, never by our code).
 */
export const POWERTOOLS_VARIABLES = {
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  metricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
  logLevel: 'POWERTOOLS_LOG_LEVEL',
} as const;

/** The variable of each server key's secret. */
export const KEY_VARIABLES = {
  sessionSigning: 'sessionSigningKeyArn',
  licenseHash: 'licenseHashKeyArn',
  licenseEncryption: 'licenseEncryptionKeyArn',
} as const satisfies Record<NonNullable<FunctionNeeds['keys']>[number], EnvironmentKey>;

/** The variables a function with these needs is given, and reads: no more, no fewer. */
export function variablesOf(needs: FunctionNeeds): EnvironmentKey[] {
  const keys: EnvironmentKey[] = [];
  if (needs.table) keys.push('tableName');
  for (const key of needs.keys ?? []) keys.push(KEY_VARIABLES[key]);
  if (needs.originSecret) keys.push('originVerifySecretArn');
  if (needs.lawyerSecrets) keys.push('lawyerSecretsPrefix');
  if (needs.webhookQueue) keys.push('webhookQueueUrl');
  if (needs.webhookQueue === 'redrive') keys.push('webhookDeadLetterQueueUrl');
  if (needs.dueClaimers) keys.push('dueClaimerFunctionName');
  if (needs.portalLinks) keys.push('portalLinkSenderFunctionName');
  if (needs.webhookSigning) keys.push('webhookSecretArn');
  if (needs.payments) keys.push('stripeSecretKeyArn');
  // Return links to Stripe, links in e-mails, and the completion-report links of the webhook bodies.
  if (needs.payments || needs.mailer || needs.webhookSigning) keys.push('publicBaseUrl');
  if (needs.payments === 'webhook') keys.push('stripeWebhookSecretArn');
  if (needs.mailer) keys.push('mailFrom', 'mailConfigurationSet', 'legalDetails');
  if (needs.relyingParty) keys.push('siteUrl');
  if (needs.dataExports) keys.push('exportBucketName');
  if (needs.dataExports === 'request') keys.push('exportBuilderFunctionName');
  return keys;
}

/** The variables a function reads when the deployment set them: a missing one is not an error. */
export function optionalVariablesOf(needs: FunctionNeeds): EnvironmentKey[] {
  return needs.adminAlerts ? ['adminAlertEmail'] : [];
}

/** The values of a function's variables, by key. */
export type Environment = Partial<Record<EnvironmentKey, string>>;

/**
 * Reads the variables of a function's needs, at cold start: a missing one is a deployment
 * error, thrown at once with the name of every missing variable.
 */
export function readEnvironment(
  needs: FunctionNeeds,
  source: Readonly<Record<string, string | undefined>> = process.env,
): Environment {
  const environment: Environment = {};
  const missing: string[] = [];
  for (const key of variablesOf(needs)) {
    const value = source[ENVIRONMENT[key]];
    if (value) environment[key] = value;
    else missing.push(ENVIRONMENT[key]);
  }
  if (missing.length > 0) throw new Error(`Variable(s) d'environnement manquante(s) : ${missing.join(', ')}`);
  for (const key of optionalVariablesOf(needs)) {
    const value = source[ENVIRONMENT[key]];
    if (value) environment[key] = value;
  }
  return environment;
}

/** A variable read at cold start; one that was not is a bug of `variablesOf`, named. */
export function variable(environment: Environment, key: EnvironmentKey): string {
  const value = environment[key];
  if (value === undefined) throw new Error(`Variable d'environnement non lue : ${ENVIRONMENT[key]}`);
  return value;
}
