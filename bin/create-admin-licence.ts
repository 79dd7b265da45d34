import { parseArgs } from 'node:util';

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

import { LicenseRepository } from '../functions/data/licenses';
import { SecondFactorAttemptRepository } from '../functions/data/second-factor-attempts';
import { SecondFactorRepository } from '../functions/data/second-factors';
import { SessionRepository } from '../functions/data/sessions';
import { createTable } from '../functions/data/table';
import { issueLicense } from '../functions/domain/licenses';
import { resetSecondFactorOf } from '../functions/domain/second-factor';
import { parseAppKeys } from '../functions/security/app-keys';
import { createLicenseKeyVault } from '../functions/security/license-key-vault';

/**
 * Issues the first admin licence of a deployment and prints its key once:
 *
 *   npx tsx bin/create-admin-licence.ts --table <TableName output> --secret <AppKeysSecretArn output>
 *
 * The last admin who lost his second factor (and his recovery codes) resets it the same way; the
 * key is read from the terminal's standard input, never from the command line (shell history):
 *
 *   npx tsx bin/create-admin-licence.ts --table <…> --secret <…> --reset-second-factor
 *
 * Uses the caller's AWS credentials and region (AWS_PROFILE / AWS_REGION as usual).
 */
const { values } = parseArgs({
  options: {
    table: { type: 'string' },
    secret: { type: 'string' },
    email: { type: 'string' },
    'reset-second-factor': { type: 'boolean', default: false },
  },
});
if (!values.table || !values.secret) {
  console.error(
    'Usage : npx tsx bin/create-admin-licence.ts --table <nom de la table> --secret <ARN du secret des clés> [--reset-second-factor]',
  );
  process.exit(2);
}

const { SecretString } = await new SecretsManagerClient({}).send(
  new GetSecretValueCommand({ SecretId: values.secret }),
);
if (!SecretString) throw new Error('Secret des clés du serveur vide');
const vault = createLicenseKeyVault(parseAppKeys(SecretString));
const table = createTable(values.table);

if (values['reset-second-factor']) {
  process.stdout.write("Clé de licence de l'administrateur : ");
  const licenseKey = await readLine();
  const keyHash = vault.hash(licenseKey);
  const license = await new LicenseRepository(table).getByHash(keyHash);
  if (license?.licenseType !== 'admin') {
    console.error("Cette clé n'est pas celle d'une licence administrateur.");
    process.exit(1);
  }
  await resetSecondFactorOf(
    new SecondFactorRepository(table),
    new SecondFactorAttemptRepository(table),
    new SessionRepository(table),
    keyHash,
  );
  console.log('Second facteur réinitialisé : il sera configuré à la prochaine connexion.');
} else {
  const { licenseKey } = await issueLicense(
    table,
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
