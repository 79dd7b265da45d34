import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

import { createTable } from '../data/table';
import { awsSchedulingPorts } from '../scheduling/ports';
import { type AppKeys, parseAppKeys } from '../security/app-keys';
import { type AppDependencies, createJsonLogger, systemClock } from './dependencies';
import { SecretsManagerLawyerSecretStore } from './secrets-manager-store';

/** Reads a required environment variable; a missing one is a deployment error, reported at once. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Variable d'environnement manquante: ${name}`);
  return value;
}

let dependencies: AppDependencies | undefined;

/** The AWS composition root: built once per Lambda execution environment. */
export function awsDependencies(): AppDependencies {
  if (dependencies) return dependencies;
  const table = createTable(requiredEnv('TABLE_NAME'));
  const secretArn = requiredEnv('APP_KEYS_SECRET_ARN');
  const secrets = new SecretsManagerClient({});
  let keys: Promise<AppKeys> | undefined;
  const appKeys = () => {
    keys ??= secrets.send(new GetSecretValueCommand({ SecretId: secretArn })).then(({ SecretString }) => {
      if (!SecretString) throw new Error('Secret des clés du serveur vide');
      return parseAppKeys(SecretString);
    });
    // A failed load is retried on the next request rather than cached for the container's life.
    keys.catch(() => {
      keys = undefined;
    });
    return keys;
  };
  dependencies = {
    table,
    appKeys,
    clock: systemClock,
    logger: createJsonLogger(process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'api'),
    // Only the lawyer functions get LAWYER_SECRETS_PREFIX (and the grant): read on first use.
    lawyerSecrets: new SecretsManagerLawyerSecretStore(secrets, () => requiredEnv('LAWYER_SECRETS_PREFIX')),
    // Webhook queue, dead-letter queue and signing secret: read on first use, by the functions that have them.
    ...awsSchedulingPorts(secrets),
  };
  return dependencies;
}
