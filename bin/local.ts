import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { logLevelOf } from '../functions/runtime/powertools-logger';
import { startLocalRuntime } from '../lib/local/runtime';

/**
 * `npm start`: the whole product on http://localhost:3000 with no AWS account and no network.
 * PORT changes the port, DATA_DIR the data directory (default .data), ADMIN_LICENSE_KEY pins the
 * admin licence key, ALLOW_PRIVATE_WEBHOOKS=false refuses webhooks on private addresses (allowed
 * by default locally, so that the demo receiver and a local n8n can be called).
 *
 * Billing: without settings, a local Stripe stand-in on PORT+2 (STRIPE_PORT to change) serves the
 * hosted checkout and posts its signed events to /api/stripe-webhook; e-mails are `.eml` files in
 * <DATA_DIR>/outbox. With STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET set, real Stripe (test mode)
 * is used instead. PUBLIC_BASE_URL is the site's address in Stripe's return links and the e-mails
 * (default http://localhost:PORT), MAIL_FROM the sender written in the e-mails.
 *
 * Admin licences must pass a second factor (passkey or authenticator code), as in AWS;
 * REQUIRE_SECOND_FACTOR=false lifts that for demos and the test suites that are not about it.
 * HOSTING_REGION is the AWS region the privacy page names (default eu-west-3). ALERT_EMAIL is the
 * admin's alert address of the deployment (none by default: /admin/settings asks for one).
 * LOG_LEVEL=debug also prints every scheduler batch (by default a tick is one line, and only when
 * it queued something or failed).
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const siteDirectory = `${root}web/dist`;
if (!existsSync(`${siteDirectory}/index.html`)) {
  console.error('Le site n’est pas construit : lancez `npm run build:web` (ou `npm start`, qui le fait).');
  process.exit(1);
}

const port = Number(process.env.PORT ?? 3000);
const stripeSecretKey = process.env.STRIPE_SECRET_KEY || undefined;
const stripeWebhookSecret = process.env.STRIPE_WEBHOOK_SECRET || undefined;
if (Boolean(stripeSecretKey) !== Boolean(stripeWebhookSecret)) {
  console.error(
    'Stripe réel : définissez STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET ensemble (ou aucun des deux pour le simulateur local).',
  );
  process.exit(1);
}
const debugLogs = logLevelOf(process.env.LOG_LEVEL) === 'DEBUG';
let stopping = false;
/** Stops everything once, whoever asks first (Ctrl-C, or DynamoDB Local lost for good). */
async function stopAndExit(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await runtime.stop();
  console.log('Arrêté.');
  process.exit(code);
}

const runtime = await startLocalRuntime({
  port,
  dataDirectory: process.env.DATA_DIR ?? `${root}.data`,
  siteDirectory,
  adminLicenseKey: process.env.ADMIN_LICENSE_KEY || undefined,
  allowPrivateWebhooks: process.env.ALLOW_PRIVATE_WEBHOOKS !== 'false',
  ...(process.env.STRIPE_PORT ? { stripePort: Number(process.env.STRIPE_PORT) } : {}),
  ...(stripeSecretKey && stripeWebhookSecret
    ? { stripe: { secretKey: stripeSecretKey, webhookSecret: stripeWebhookSecret } }
    : {}),
  ...(process.env.PUBLIC_BASE_URL ? { publicUrl: process.env.PUBLIC_BASE_URL } : {}),
  ...(process.env.MAIL_FROM ? { mailFrom: process.env.MAIL_FROM } : {}),
  requireSecondFactor: process.env.REQUIRE_SECOND_FACTOR !== 'false',
  ...(process.env.HOSTING_REGION ? { hostingRegion: process.env.HOSTING_REGION } : {}),
  ...(process.env.ALERT_EMAIL ? { adminAlertEmail: process.env.ALERT_EMAIL } : {}),
  onDatabaseLost: (error) => {
    console.error(`\n${error.message}`);
    void stopAndExit(1);
  },
  logger: {
    debug: (message, facts) => {
      if (debugLogs) console.log(message, facts ?? '');
    },
    info: (message) => console.log(message),
    warn: (message, facts) => console.warn(message, facts ?? ''),
    error: (message, facts) => console.error(message, facts ?? ''),
  },
});

console.log(`
Assistant IA juridique — environnement local
  Site et API : ${runtime.url}
  DynamoDB Local : 127.0.0.1 seulement (inaccessible depuis le réseau)
  Admin licence key: ${runtime.keys.adminLicenseKey}
  Lawyer licence key: ${runtime.keys.lawyerLicenseKey}
  Notary licence key: ${runtime.keys.notaryLicenseKey}
  Planificateur : toutes les minutes ; file des webhooks fauxqs (en mémoire)
  Secret de signature des webhooks (n8n) : ${runtime.scheduling.webhookSecret}
  Récepteur de webhooks de démonstration : ${runtime.scheduling.demoWebhookUrl}
    (appels reçus : ${runtime.scheduling.demoPageUrl})
  ${
    runtime.scheduling.allowPrivateWebhooks
      ? 'Webhooks vers adresses privées autorisés (local) — ALLOW_PRIVATE_WEBHOOKS=false pour les refuser'
      : 'Webhooks vers adresses privées refusés (ALLOW_PRIVATE_WEBHOOKS=false)'
  }
  ${
    runtime.billing.standInUrl
      ? `Paiements : simulateur Stripe local — paiement hébergé sous ${runtime.billing.standInUrl}/checkout/…
    (abonnements, codes promo et événements : ${runtime.billing.standInUrl}/_stand-in)
    (secret de signature de ses webhooks : ${runtime.billing.standInWebhookSecretFile})`
      : `Paiements : Stripe réel (mode test) — webhooks attendus sur ${runtime.billing.webhookUrl}
    (stripe listen --forward-to ${runtime.billing.webhookUrl})`
  }
  Boîte d'envoi des e-mails (.eml) : ${runtime.billing.outboxDirectory}
  ${
    runtime.requireSecondFactor
      ? 'Vérification en deux étapes exigée pour les administrateurs (comme sur AWS)'
      : 'ATTENTION : vérification en deux étapes des administrateurs DÉSACTIVÉE (REQUIRE_SECOND_FACTOR=false) — démonstration et tests uniquement'
  }
Ctrl-C pour arrêter.
`);

process.on('SIGINT', () => {
  console.log('\nSIGINT reçu : arrêt en cours...');
  void stopAndExit(0);
});
process.on('SIGTERM', () => {
  console.log('\nSIGTERM reçu : arrêt en cours...');
  void stopAndExit(0);
});
