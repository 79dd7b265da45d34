import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { StripePayments } from '../../functions/adapters/billing/stripe-payments';
import { createTable } from '../../functions/data/table/table';
import { withLegalFooter } from '../../functions/domain/core/legal-footer';
import { RecordedMetrics } from '../../functions/domain/core/metrics';
import type { Logger } from '../../functions/domain/core/ports';
import { API_HANDLERS } from '../../functions/handlers';
import { createDataExportBuilderHandler } from '../../functions/handlers/billing/data-export-builder';
import { createDataRetentionHandler } from '../../functions/handlers/billing/data-retention';
import { createPortalLinkSenderHandler } from '../../functions/handlers/billing/portal-link-sender';
import type { ApiHandler } from '../../functions/http/api-event';
import { migrateAdminLists } from '../../functions/migrations/admin-lists-migration';
import { migrateFailingSet } from '../../functions/migrations/failing-set-migration';
import { migratePausedList } from '../../functions/migrations/paused-list-migration';
import { migrateRunEnds } from '../../functions/migrations/run-ends-migration';
import { migrateWorkflows } from '../../functions/migrations/workflow-migration';
import type { BillingPorts } from '../../functions/runtime/billing-ports';
import { type AppDependencies, relyingPartyOf, systemClock } from '../../functions/runtime/dependencies';
import { processLogger } from '../../functions/runtime/powertools-logger';
import { createLicenseKeyVault } from '../../functions/security/license-key-vault';
import { DEFAULT_HOSTING_REGION } from '../../shared/constants';
import { EXAMPLE_LEGAL_DETAILS } from '../../shared/legal-details';
import { type HandlerName, ROUTES, type RouteDefinition } from '../../shared/routes';
import { loadOrCreateAppKeys } from './app-keys-file';
import { inProcessExportJobs, LocalExportFiles } from './data-exports';
import { ensureTable, LOCAL_AWS, superviseDynamoDbLocal } from './dynamodb-local';
import { FileLawyerSecretStore } from './file-secret-store';
import { freePort } from './free-port';
import { createHttpAdapter } from './http-adapter';
import { OutboxMailer } from './outbox-mailer';
import { BackgroundPortalLinks } from './portal-links';
import {
  type LocalScheduling,
  type LocalSchedulingInfo,
  startLocalScheduling,
} from './queue/local-scheduling';
import { startMinuteTimer } from './queue/minute-timer';
import { type SeedKeys, seedLocalData } from './seed';
import { loadOrCreateStandInWebhookSecret, STAND_IN_WEBHOOK_SECRET_FILE } from './stand-in-webhook-secret';
import { type StripeStandIn, startStripeStandIn } from './stripe/stand-in';

export interface LocalRuntimeOptions {
  readonly port: number;
  /** Where DynamoDB Local, the keys file and the seed live between runs. */
  readonly dataDirectory: string;
  readonly siteDirectory: string;
  readonly adminLicenseKey?: string;
  readonly logger?: Logger;
  /** Whether webhooks may be called on loopback and private addresses. @default true */
  readonly allowPrivateWebhooks?: boolean;
  /** The demo webhook receiver's port (a free one if taken). @default port + 1 */
  readonly demoReceiverPort?: number;
  /** The local Stripe stand-in's port (a free one if taken). @default port + 2 */
  readonly stripePort?: number;
  /**
   * Real Stripe in test mode instead of the stand-in: its secret key and the signing secret of
   * the webhook endpoint that forwards to `/api/stripe-webhook` (`stripe listen`).
   * @default the local stand-in
   */
  readonly stripe?: { readonly secretKey: string; readonly webhookSecret: string };
  /** The site's address as the browser reaches it (Stripe return URLs, e-mail links). @default http://localhost:<port> */
  readonly publicUrl?: string;
  /** The sender written in the outbox's e-mails. @default Assistant IA juridique <no-reply@localhost> */
  readonly mailFrom?: string;
  /**
   * The admin's alert address of this deployment, as `-c alertEmail` sets it in AWS. @default none:
   * /admin/settings warns until an admin sets one
   */
  readonly adminAlertEmail?: string;
  /**
   * Whether admin licences must pass a second factor, as in AWS. `false` lifts it for demos and the
   * browser suites that are not about it (a licence that enrolled a factor is asked for it anyway).
   * @default true
   */
  readonly requireSecondFactor?: boolean;
  /**
   * The AWS region the privacy page names as where the data lives.
   * @default eu-west-3 (the deployment's default region)
   */
  readonly hostingRegion?: string;
  /**
   * DynamoDB Local stopped and could not be restarted (`DYNAMODB_RESTARTS` tries): the runtime
   * cannot serve anything. `npm start` says why and stops.
   * @default the error is logged
   */
  readonly onDatabaseLost?: (error: Error) => void;
}

/** What the start-up banner prints about billing. */
export interface LocalBillingInfo {
  /** `stand-in`: the local Stripe stand-in; `stripe`: real Stripe in test mode. */
  readonly mode: 'stand-in' | 'stripe';
  /** The folder where each e-mail is written as a `.eml` file. */
  readonly outboxDirectory: string;
  /** The webhook endpoint Stripe (or the stand-in) posts to. */
  readonly webhookUrl: string;
  /** The stand-in's pages (hosted checkout under /checkout/…, testers' index at the root). */
  readonly standInUrl: string | null;
  /** The file holding the stand-in's webhook signing secret (null with real Stripe). */
  readonly standInWebhookSecretFile: string | null;
}

export interface LocalRuntime {
  readonly url: string;
  readonly keys: SeedKeys;
  /** The webhook signing secret, the private-address setting and the demo receiver, to print. */
  readonly scheduling: LocalSchedulingInfo;
  readonly billing: LocalBillingInfo;
  /** Whether admin licences must pass a second factor (the banner says when they need not). */
  readonly requireSecondFactor: boolean;
  /** DynamoDB Local's current Java process (a new one after each restart). */
  readonly databasePid: () => number | undefined;
  stop(): Promise<void>;
}

const TABLE_NAME = 'assistant-juridique';
/** The stand-in accepts only this key, so that nothing else mistakes it for Stripe. */
const STAND_IN_API_KEY = 'sk_test_local_stand_in';

/** Starts the stand-in on its port, or on a free one when that is taken. */
async function startStandIn(
  port: number,
  webhookUrl: string,
  webhookSecret: string,
  logger: Logger,
): Promise<StripeStandIn> {
  const start = (listenPort: number) =>
    startStripeStandIn({
      port: listenPort,
      webhookUrl,
      webhookSecret,
      apiKey: STAND_IN_API_KEY,
      // The browser is sent to its hosted checkout: the same host name as the site.
      publicBaseUrl: `http://localhost:${listenPort}`,
      log: (line) => logger.info(line),
    });
  try {
    return await start(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return start(await freePort());
  }
}

/**
 * The whole product on one machine: DynamoDB Local with data under the data directory, the real
 * handlers behind an HTTP API v2 adapter, and the built SPA on the same origin.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const logger = options.logger ?? processLogger('local');
  const dataDirectory = resolve(options.dataDirectory);
  mkdirSync(dataDirectory, { recursive: true, mode: 0o700 });

  const dynamo = await superviseDynamoDbLocal(join(dataDirectory, 'dynamodb'), {
    announce: (line) => logger.warn(line),
    gaveUp: options.onDatabaseLost ?? ((error) => logger.error(error.message, { errorName: error.name })),
  });
  let scheduling: LocalScheduling | undefined;
  let standIn: StripeStandIn | undefined;
  try {
    await ensureTable(dynamo.endpoint, TABLE_NAME);
    const keys = loadOrCreateAppKeys(join(dataDirectory, 'app-keys.json'));
    const table = createTable(TABLE_NAME, { ...LOCAL_AWS, endpoint: dynamo.endpoint });
    // A data directory of an older version keeps its items: brought to today's shape as a deployed
    // stack is by `npm run migrate` (idempotent: a few empty queries when there is nothing to do).
    await migrateWorkflows(table);
    await migrateAdminLists(table);
    await migrateFailingSet(table);
    await migratePausedList(table);
    await migrateRunEnds(table);
    const localScheduling = await startLocalScheduling({
      dataDirectory,
      allowPrivateWebhooks: options.allowPrivateWebhooks ?? true,
      demoReceiverPort: options.demoReceiverPort ?? options.port + 1,
      logger,
    });
    scheduling = localScheduling;

    const siteUrl = `http://localhost:${options.port}`;
    const publicUrl = (options.publicUrl ?? siteUrl).replace(/\/$/, '');
    const webhookUrl = `http://127.0.0.1:${options.port}/api/stripe-webhook`;
    const outboxDirectory = join(dataDirectory, 'outbox');
    const standInSecretFile = join(dataDirectory, STAND_IN_WEBHOOK_SECRET_FILE);
    let payments: StripePayments;
    if (options.stripe) {
      payments = new StripePayments({
        apiKey: options.stripe.secretKey,
        webhookSecret: options.stripe.webhookSecret,
      });
    } else {
      // Kept under the data directory (0600) so that a tester can sign his own events with it.
      const webhookSecret = loadOrCreateStandInWebhookSecret(standInSecretFile);
      standIn = await startStandIn(options.stripePort ?? options.port + 2, webhookUrl, webhookSecret, logger);
      payments = new StripePayments({ apiKey: STAND_IN_API_KEY, webhookSecret, ...standIn.connection });
    }
    const mailFrom = options.mailFrom ?? 'Assistant IA juridique <no-reply@localhost>';
    // Locally the legal details are the example values, marked 'Exemple — …' wherever they show.
    const mailer = withLegalFooter(
      new OutboxMailer({ directory: outboxDirectory, from: mailFrom, announce: (line) => logger.info(line) }),
      EXAMPLE_LEGAL_DETAILS,
    );
    const billing: BillingPorts = { payments: async () => payments, mailer, publicUrl: () => publicUrl };

    const requireSecondFactor = options.requireSecondFactor ?? true;
    const portalLinks = new BackgroundPortalLinks(logger);
    // The firms' data exports: files under the data directory, built by a task of this process.
    const exportFiles = new LocalExportFiles(join(dataDirectory, 'exports'), () => publicUrl);
    const exportJobs = inProcessExportJobs(logger);
    const deps: AppDependencies = {
      ...localScheduling.ports,
      publicApiUrl: () => publicUrl,
      // WebAuthn needs a secure context: http://localhost is one, so the relying party is localhost.
      secondFactor: { requiredForAdmins: requireSecondFactor, relyingParty: () => relyingPartyOf(siteUrl) },
      table,
      appKeys: async () => keys,
      clock: systemClock,
      logger,
      // Kept in memory: locally nobody alarms on them.
      metrics: new RecordedMetrics(),
      lawyerSecrets: new FileLawyerSecretStore(join(dataDirectory, 'lawyer-secrets.json')),
      billing,
      mail: { mailer, sender: mailFrom, publicUrl: () => publicUrl },
      ...(options.adminAlertEmail ? { adminAlertEmail: options.adminAlertEmail } : {}),
      portalLinks,
      exports: { files: exportFiles, jobs: exportJobs },
    };
    portalLinks.serveWith(createPortalLinkSenderHandler(deps));
    const buildExport = createDataExportBuilderHandler(deps);
    exportJobs.bind((job) => buildExport(job, undefined));

    const seed = await seedLocalData(
      table,
      createLicenseKeyVault(keys),
      join(dataDirectory, 'seed.json'),
      options.adminLicenseKey,
      new Date().toISOString(),
    );

    // Each handler is held to its declared needs by its factory, as in Lambda.
    const handlers = new Map<HandlerName, ApiHandler>();
    const routes = Object.values(ROUTES).map((route: RouteDefinition & { handler: HandlerName }) => {
      if (!handlers.has(route.handler)) handlers.set(route.handler, API_HANDLERS[route.handler](deps));
      return { route, handler: handlers.get(route.handler)! };
    });

    const server = createServer(
      createHttpAdapter({
        routes,
        siteDirectory: options.siteDirectory,
        // New automations point at the demo receiver by default, so a first run is seen at once.
        siteConfig: {
          apiBaseUrl: '',
          workflowWebhookBaseUrl: new URL(localScheduling.info.demoWebhookUrl).origin,
          hostingRegion: options.hostingRegion ?? DEFAULT_HOSTING_REGION,
          legal: EXAMPLE_LEGAL_DETAILS,
        },
        logger,
        downloads: exportFiles,
      }),
    );
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port, '127.0.0.1', () => resolveListen());
    });
    localScheduling.run(deps);
    // Spec §9 retention: hourly in AWS; here every minute, a Query of an index that is usually empty.
    const purgeDue = createDataRetentionHandler(deps);
    const retention = startMinuteTimer(() => purgeDue({}), logger, {
      failureMessage: 'Rétention des données en échec',
    });

    return {
      url: siteUrl,
      keys: seed,
      scheduling: localScheduling.info,
      requireSecondFactor,
      databasePid: () => dynamo.pid,
      billing: {
        mode: options.stripe ? 'stripe' : 'stand-in',
        outboxDirectory,
        webhookUrl,
        standInUrl: standIn?.url ?? null,
        standInWebhookSecretFile: standIn ? standInSecretFile : null,
      },
      stop: async () => {
        await retention.stop();
        await portalLinks.settled();
        await localScheduling.stop();
        await exportJobs.idle();
        // Before the server closes: deliveries in flight still reach the webhook handler.
        await standIn?.stop();
        await new Promise<void>((resolveClose) => {
          server.close(() => resolveClose());
          server.closeAllConnections();
        });
        table.doc.destroy();
        await dynamo.stop();
      },
    };
  } catch (error) {
    await standIn?.stop();
    await scheduling?.stop();
    await dynamo.stop();
    throw error;
  }
}
