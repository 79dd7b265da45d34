import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { startLocalRuntime } from '../lib/local/runtime';

/**
 * `npm start`: the whole product on http://localhost:3000 with no AWS account and no network.
 * PORT changes the port, DATA_DIR the data directory (default .data), ADMIN_LICENSE_KEY pins the
 * admin licence key.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const siteDirectory = `${root}web/dist`;
if (!existsSync(`${siteDirectory}/index.html`)) {
  console.error('Le site n’est pas construit : lancez `npm run build:web` (ou `npm start`, qui le fait).');
  process.exit(1);
}

const port = Number(process.env.PORT ?? 3000);
const runtime = await startLocalRuntime({
  port,
  dataDirectory: process.env.DATA_DIR ?? `${root}.data`,
  siteDirectory,
  adminLicenseKey: process.env.ADMIN_LICENSE_KEY || undefined,
  logger: {
    info: (message) => console.log(message),
    warn: (message, facts) => console.warn(message, facts ?? ''),
    error: (message, facts) => console.error(message, facts ?? ''),
  },
});

console.log(`
Assistant IA juridique — environnement local
  Site et API : ${runtime.url}
  Admin licence key: ${runtime.keys.adminLicenseKey}
  Lawyer licence key: ${runtime.keys.lawyerLicenseKey}
Ctrl-C pour arrêter.
`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal} reçu : arrêt en cours...`);
  await runtime.stop();
  console.log('Arrêté.');
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
