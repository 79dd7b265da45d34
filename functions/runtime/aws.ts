import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretsManagerLawyerSecretStore } from '../adapters/secrets-manager-store';
import { createTable } from '../data/table';
import { parseAppKeys } from '../security/app-keys';
import { awsBillingPorts } from './billing-ports';
import { cachedSecret } from './cached-secret';
import { type AppDependencies, createJsonLogger, relyingPartyOf, systemClock } from './dependencies';
import { ENVIRONMENT, lazyEnv, requiredEnv } from './environment';
import { awsSchedulingPorts } from './scheduling-ports';

/** Reads a required environment variable; a missing one is a deployment error, reported at once. */
let dependencies: AppDependencies | undefined;

/** The AWS composition root: built once per Lambda execution environment. */
export function awsDependencies(): AppDependencies {
  if (dependencies) return dependencies;
  const table = createTable(requiredEnv('TABLE_NAME'));
  const secrets = new SecretsManagerClient({});
  // Read on first use: the scheduler tick and the webhook worker have no keys secret at all.
  const appKeys = cachedSecret(secrets, lazyEnv(ENVIRONMENT.appKeysSecretArn), (value) =>
    parseAppKeys(value),
  );
  // Only the functions that count clients by address get the origin secret (and its grant).
  const originSecretArn = process.env[ENVIRONMENT.originVerifySecretArn];
  const originSecret = originSecretArn
    ? cachedSecret(
        secrets,
        () => originSecretArn,
        (value) => value,
      )
    : undefined;
  dependencies = {
    table,
    appKeys,
    ...(originSecret ? { originSecret } : {}),
    clock: systemClock,
    logger: createJsonLogger(process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'api'),
    // Only the lawyer functions get LAWYER_SECRETS_PREFIX (and the grant): read on first use.
    lawyerSecrets: new SecretsManagerLawyerSecretStore(secrets, lazyEnv('LAWYER_SECRETS_PREFIX')),
    // Admins always pass a second factor in AWS; the relying party is the site's host name.
    secondFactor: {
      requiredForAdmins: true,
      relyingParty: () => relyingPartyOf(requiredEnv(ENVIRONMENT.siteUrl)),
    },
    // Webhook queue, dead-letter queue and signing secret: read on first use, by the functions that have them.
    ...awsSchedulingPorts(secrets),
    // Stripe secrets, SES sender and the site's address: read on first use, by the billing functions.
    billing: awsBillingPorts(secrets),
  };
  return dependencies;
}
