import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretsManagerLawyerSecretStore } from '../adapters/secrets-manager-store';
import { createTable } from '../data/table';
import { parseAppKeys } from '../security/app-keys';
import { awsBillingPorts } from './billing-ports';
import { cachedSecret, type SecretReading } from './cached-secret';
import { type AppDependencies, systemClock } from './dependencies';
import { ENVIRONMENT, lazyEnv, requiredEnv } from './environment';
import { powertoolsLogger, powertoolsMetrics, tracer } from './powertools';
import { awsSchedulingPorts } from './scheduling-ports';

let dependencies: AppDependencies | undefined;

/**
 * The AWS composition root: built once per Lambda execution environment. Logs, metrics and traces
 * go through Powertools (`powertools.ts`); every AWS SDK client is traced; secrets are read through
 * Powertools Parameters and kept at most `SECRET_MAX_AGE_SECONDS`.
 */
export function awsDependencies(): AppDependencies {
  if (dependencies) return dependencies;
  const table = createTable(requiredEnv('TABLE_NAME'));
  tracer.captureAWSv3Client(table.doc);
  const secrets = tracer.captureAWSv3Client(new SecretsManagerClient({}));
  const reading: SecretReading = {
    provider: new SecretsProvider({ awsSdkV3Client: secrets }),
    metrics: powertoolsMetrics,
    logger: powertoolsLogger,
  };
  // Read on first use: the scheduler tick and the webhook worker have no keys secret at all.
  const appKeys = cachedSecret(
    reading,
    'des clés du serveur',
    lazyEnv(ENVIRONMENT.appKeysSecretArn),
    (value) => parseAppKeys(value),
  );
  // Every API function has the origin secret; the event functions (tick, worker, purge) do not.
  const originSecretArn = process.env[ENVIRONMENT.originVerifySecretArn];
  const originSecret = originSecretArn
    ? cachedSecret(
        reading,
        'd’origine CloudFront',
        () => originSecretArn,
        (value) => value,
      )
    : undefined;
  dependencies = {
    table,
    appKeys,
    ...(originSecret ? { originSecret } : {}),
    clock: systemClock,
    logger: powertoolsLogger,
    metrics: powertoolsMetrics,
    // Only the lawyer functions get LAWYER_SECRETS_PREFIX (and the grant): read on first use.
    lawyerSecrets: new SecretsManagerLawyerSecretStore(secrets, lazyEnv('LAWYER_SECRETS_PREFIX')),
    // Webhook queue, dead-letter queue and signing secret: read on first use, by the functions that have them.
    ...awsSchedulingPorts(reading),
    // Stripe secrets, SES sender and the site's address: read on first use, by the billing functions.
    billing: awsBillingPorts(reading),
  };
  return dependencies;
}
