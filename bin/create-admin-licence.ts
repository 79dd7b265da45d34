import { parseArgs } from 'node:util';

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

import { createTable } from '../functions/data/table';
import { issueLicense } from '../functions/domain/licenses';
import { parseServerKey } from '../functions/security/app-keys';
import { createLicenseKeyVault } from '../functions/security/license-key-vault';

/**
 * Issues the first admin licence of a deployment and prints its key once.
 *
 *   npx tsx bin/create-admin-licence.ts --table <TableName output> \
 *     --hash-key <LicenseHashKeySecretArn output> --encryption-key <LicenseEncryptionKeySecretArn output>
 *
 * Uses the caller's AWS credentials and region (AWS_PROFILE / AWS_REGION as usual).
 */
const { values } = parseArgs({
  options: {
    table: { type: 'string' },
    'hash-key': { type: 'string' },
    'encryption-key': { type: 'string' },
    email: { type: 'string' },
  },
});
const hashKeyArn = values['hash-key'];
const encryptionKeyArn = values['encryption-key'];
if (!values.table || !hashKeyArn || !encryptionKeyArn) {
  console.error(
    'Usage : npx tsx bin/create-admin-licence.ts --table <nom de la table> ' +
      '--hash-key <ARN du secret LicenseHashKey> --encryption-key <ARN du secret LicenseEncryptionKey>',
  );
  process.exit(2);
}

const client = new SecretsManagerClient({});
const readKey = async (secretId: string) => {
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!SecretString) throw new Error('Secret de clé du serveur vide');
  return parseServerKey(SecretString);
};
const [licenseHashKey, licenseEncryptionKey] = await Promise.all([
  readKey(hashKeyArn),
  readKey(encryptionKeyArn),
]);
const vault = createLicenseKeyVault({ licenseHashKey, licenseEncryptionKey });
const { licenseKey } = await issueLicense(
  createTable(values.table),
  vault,
  { licenseType: 'admin', userEmail: values.email ?? null },
  new Date().toISOString(),
);
console.log(`Admin licence key: ${licenseKey}`);
