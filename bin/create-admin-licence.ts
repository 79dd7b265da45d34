import { parseArgs } from 'node:util';

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

import { LicenseRepository } from '../functions/data/identity/licenses';
import { createTable } from '../functions/data/table/table';
import { issueLicense } from '../functions/domain/identity/licenses';
import { resetSecondFactorOf } from '../functions/domain/second-factor/reset';
import { secondFactorStoresOf } from '../functions/runtime/services/second-factor';
import { parseServerKey } from '../functions/security/app-keys';
import { createLicenseKeyVault } from '../functions/security/license-key-vault';

/**
 * Issues the first admin licence of a deployment and prints its key once:
 *
 *   npx tsx bin/create-admin-licence.ts --table <TableName output> \
 *     --hash-key <LicenseHashKeySecretArn output> --encryption-key <LicenseEncryptionKeySecretArn output>
 *
 * The last admin who lost his second factor (and his recovery codes) resets it the same way; the
 * key is read from the terminal's standard input, never from the command line (shell history):
 *
 *   npx tsx bin/create-admin-licence.ts --table <…> --hash-key <…> --encryption-key <…> --reset-second-factor
 *
 * Uses the caller's AWS credentials, in the stage's region: `--region`, else the region of the
 * secrets' ARNs, never the profile's.
 */
const { values } = parseArgs({
  options: {
    table: { type: 'string' },
    'hash-key': { type: 'string' },
    'encryption-key': { type: 'string' },
    email: { type: 'string' },
    'reset-second-factor': { type: 'boolean', default: false },
    region: { type: 'string' },
  },
});
const hashKeyArn = values['hash-key'];
const encryptionKeyArn = values['encryption-key'];
if (!values.table || !hashKeyArn || !encryptionKeyArn) {
  console.error(
    'Usage : npx tsx bin/create-admin-licence.ts --table <nom de la table> ' +
      '--hash-key <ARN du secret LicenseHashKey> --encryption-key <ARN du secret LicenseEncryptionKey> [--reset-second-factor]',
  );
  process.exit(2);
}

// arn:aws:secretsmanager:<region>:<account>:secret:<name>
const region = values.region ?? hashKeyArn.split(':')[3];
if (!region) {
  console.error('Région introuvable : donnez --region <région de la pile> (eu-west-3 par défaut des piles).');
  process.exit(2);
}
const client = new SecretsManagerClient({ region });
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
const table = createTable(values.table, { region });
if (values['reset-second-factor']) {
  process.stdout.write("Clé de licence de l'administrateur : ");
  const licenseKey = await readLine();
  const keyHash = vault.hash(licenseKey);
  const license = await new LicenseRepository(table).getByHash(keyHash);
  if (license?.licenseType !== 'admin') {
    console.error("Cette clé n'est pas celle d'une licence administrateur.");
    process.exit(1);
  }
  await resetSecondFactorOf(secondFactorStoresOf(table), keyHash);
  console.log('Second facteur réinitialisé : il sera configuré à la prochaine connexion.');
} else {
  const { licenseKey } = await issueLicense(
    new LicenseRepository(table),
    vault,
    { licenseType: 'admin', userEmail: values.email ?? null },
    new Date().toISOString(),
  );
  console.log(`Admin licence key: ${licenseKey}`);
}

/** One line of standard input, trimmed. */
async function readLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]?.trim() ?? '';
}
