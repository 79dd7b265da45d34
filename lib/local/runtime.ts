import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';

import { createTable } from '../../functions/data/table';
import { HANDLER_FACTORIES } from '../../functions/registry';
import {
  type AppDependencies,
  createJsonLogger,
  type Logger,
  systemClock,
} from '../../functions/runtime/dependencies';
import { createLicenseKeyVault } from '../../functions/security/license-key-vault';
import { ROUTES, type RouteDefinition } from '../../shared/routes';
import { loadOrCreateAppKeys } from './app-keys-file';
import { ensureTable, LOCAL_AWS, startDynamoDbLocal } from './dynamodb-local';
import { FileLawyerSecretStore } from './file-secret-store';
import { createHttpAdapter } from './http-adapter';
import {
  type LocalScheduling,
  type LocalSchedulingInfo,
  startLocalScheduling,
} from './queue/local-scheduling';
import { type SeedKeys, seedLocalData } from './seed';

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
}

export interface LocalRuntime {
  readonly url: string;
  readonly keys: SeedKeys;
  /** The webhook signing secret, the private-address setting and the demo receiver, to print. */
  readonly scheduling: LocalSchedulingInfo;
  stop(): Promise<void>;
}

const TABLE_NAME = 'assistant-juridique';

/**
 * The whole product on one machine: DynamoDB Local with data under the data directory, the real
 * handlers behind an HTTP API v2 adapter, and the built SPA on the same origin.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const logger = options.logger ?? createJsonLogger('local');
  const dataDirectory = resolve(options.dataDirectory);
  mkdirSync(dataDirectory, { recursive: true, mode: 0o700 });

  const dynamo = await startDynamoDbLocal({ dataDir: join(dataDirectory, 'dynamodb') });
  let scheduling: LocalScheduling | undefined;
  try {
    await ensureTable(dynamo.endpoint, TABLE_NAME);
    const keys = loadOrCreateAppKeys(join(dataDirectory, 'app-keys.json'));
    const table = createTable(TABLE_NAME, { ...LOCAL_AWS, endpoint: dynamo.endpoint });
    const localScheduling = await startLocalScheduling({
      dataDirectory,
      allowPrivateWebhooks: options.allowPrivateWebhooks ?? true,
      demoReceiverPort: options.demoReceiverPort ?? options.port + 1,
      logger,
    });
    scheduling = localScheduling;
    const deps: AppDependencies = {
      ...localScheduling.ports,
      table,
      appKeys: async () => keys,
      clock: systemClock,
      logger,
      lawyerSecrets: new FileLawyerSecretStore(join(dataDirectory, 'lawyer-secrets.json')),
    };

    const seed = await seedLocalData(
      table,
      createLicenseKeyVault(keys),
      join(dataDirectory, 'seed.json'),
      options.adminLicenseKey,
      new Date().toISOString(),
    );

    const handlers = new Map<string, ReturnType<(typeof HANDLER_FACTORIES)[string]>>();
    const routes = Object.values(ROUTES as Record<string, RouteDefinition>).map((route) => {
      const factory = HANDLER_FACTORIES[route.handler];
      if (!factory) throw new Error(`Aucun handler enregistré pour ${route.handler}`);
      if (!handlers.has(route.handler)) handlers.set(route.handler, factory(deps));
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
        },
        logger,
      }),
    );
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port, '127.0.0.1', () => resolveListen());
    });
    localScheduling.run(deps);

    return {
      url: `http://localhost:${options.port}`,
      keys: seed,
      scheduling: localScheduling.info,
      stop: async () => {
        await localScheduling.stop();
        await new Promise<void>((resolveClose) => {
          server.close(() => resolveClose());
          server.closeAllConnections();
        });
        table.doc.destroy();
        await dynamo.stop();
      },
    };
  } catch (error) {
    await scheduling?.stop();
    await dynamo.stop();
    throw error;
  }
}
