import { parseArgs } from 'node:util';

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

import { createTable } from '../functions/data/table';
import { issueLicense } from '../functions/domain/licenses';
import { parseAppKeys } from '../functions/security/app-keys';
import { createLicenseKeyVault } from '../functions/security/license-key-vault';

/**
 * Issues the first admin licence of a deployment and prints its key once.
 *
 *   npx tsx bin/create-admin-licence.ts --table <TableName output> --secret <AppKeysSecretArn output>
 *
 * Uses the caller's AWS credentials and region (AWS_PROFILE / AWS_REGION as usual).
 */
const { values } = parseArgs({
  options: { table: { type: 'string' }, secret: { type: 'string' }, email: { type: 'string' } },
});
if (!values.table || !values.secret) {
  console.error(
    'Usage : npx tsx bin/create-admin-licence.ts --table <nom de la table> --secret <ARN du secret des clés>',
  );
  process.exit(2);
}

const { SecretString } = await new SecretsManagerClient({}).send(
  new GetSecretValueCommand({ SecretId: values.secret }),
);
if (!SecretString) throw new Error('Secret des clés du serveur vide');
const vault = createLicenseKeyVault(parseAppKeys(SecretString));
const { licenseKey } = await issueLicense(
  createTable(values.table),
  vault,
  { licenseType: 'admin', userEmail: values.email ?? null },
  new Date().toISOString(),
);
console.log(`Admin licence key: ${licenseKey}`);
