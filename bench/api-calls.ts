import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';

import { generateWebhookSecret } from '../functions/adapters/scheduling/webhook-signature';
import type { Table } from '../functions/data/table/table';
import { RecordedMetrics } from '../functions/domain/core/metrics';
import { API_HANDLERS } from '../functions/handlers';
import { createDueClaimerHandler } from '../functions/handlers/scheduling/due-claimer';
import type { ApiEvent, ApiHandler, ApiResult } from '../functions/http/api-event';
import type { AppDependencies } from '../functions/runtime/dependencies';
import { systemClock } from '../functions/runtime/dependencies';
import { inProcessClaimers } from '../functions/runtime/in-process-claimers';
import { generateStoredAppKeys, parseAppKeys } from '../functions/security/app-keys';
import { createLicenseKeyVault } from '../functions/security/license-key-vault';
import { startLocalQueues } from '../lib/local/queue/local-queues';
import { seedLocalData } from '../lib/local/seed';
import { SIGN_IN_THROTTLE } from '../shared/constants';
import { type CapacityMeter, callsInSequence, type MeteredCall, meterTable, sumOf } from './capacity';
import { percentile } from './percentile';
import { quietLogger } from './quiet-logger';
import { benchTable, dropTable } from './scheduler';

/**
 * The API requests measured in what carries to AWS: the DynamoDB calls a request makes, how many
 * of them wait for one another, the units they cost, and the Node CPU the function spends on a
 * request beside a bare script sending the same calls with the same client (side by side, in one
 * process, against the same DynamoDB Local: the emulator's own CPU is in its Java process, not
 * counted on either side).
 */

/** One captured call: the command and its input as the code sent it (the document client's form). */
interface CapturedCall {
  readonly operation: string;
  readonly input: Record<string, unknown>;
  readonly startedAt: number;
  readonly endedAt: number;
}

const COMMANDS: Record<string, new (input: never) => unknown> = {
  GetItem: GetCommand,
  PutItem: PutCommand,
  UpdateItem: UpdateCommand,
  DeleteItem: DeleteCommand,
  Query: QueryCommand,
  BatchGetItem: BatchGetCommand,
  BatchWriteItem: BatchWriteCommand,
  TransactWriteItems: TransactWriteCommand,
  TransactGetItems: TransactGetCommand,
};

/** The figures of one kind of request. */
export interface RequestFigures {
  readonly request: string;
  readonly samples: number;
  /** DynamoDB calls per request (the most any sample made). */
  readonly calls: number;
  /** Calls that waited for one another (the longest chain, the most any sample had). */
  readonly inSequence: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  /** Node CPU per request, median: the function (handler) and the bare script. */
  readonly handlerCpuMs: number;
  readonly bareCpuMs: number;
}

/** An HTTP API v2 event for a route, as API Gateway sends it (payload 2.0). */
export function apiRequest(
  method: string,
  path: string,
  options: {
    readonly body?: unknown;
    readonly token?: string;
    readonly routePath?: string;
    readonly pathParameters?: Record<string, string>;
    readonly query?: Record<string, string>;
  } = {},
): ApiEvent {
  const routeKey = `${method} ${options.routePath ?? path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.pathParameters ? { pathParameters: options.pathParameters } : {}),
    ...(options.query ? { queryStringParameters: options.query } : {}),
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.10', userAgent: 'bench' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    isBase64Encoded: false,
  };
}

const context = { awsRequestId: 'bench' } as Context;

/** Replays captured calls as the code sent them: calls that overlapped together, waves one after the other. */
function wavesOf(calls: readonly CapturedCall[]): CapturedCall[][] {
  const sorted = [...calls].sort((a, b) => a.startedAt - b.startedAt);
  const waves: CapturedCall[][] = [];
  let current: CapturedCall[] = [];
  for (const call of sorted) {
    // A call that started after one of the current wave ended waited for it: a new wave.
    if (current.some((earlier) => earlier.endedAt <= call.startedAt)) {
      waves.push(current);
      current = [];
    }
    current.push(call);
  }
  if (current.length > 0) waves.push(current);
  return waves;
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export interface ApiCallsFigures {
  readonly requests: readonly RequestFigures[];
  readonly workflows: number;
  /** Right keys sent at once from one address, and how many the per-address throttle refused. */
  readonly rightKeysAtOnce: { readonly sent: number; readonly refused: number };
}

/** The API's handlers in this process over a bench table, an admin and a lawyer seeded as `npm start` does. */
export interface ApiWorld {
  readonly deps: AppDependencies;
  readonly table: Table;
  readonly meter: CapacityMeter;
  readonly queues: Awaited<ReturnType<typeof startLocalQueues>>;
  readonly seed: { readonly adminLicenseKey: string; readonly lawyerLicenseKey: string };
  readonly lawyerEmail: string;
  /** Calls a route's handler; a reply other than 2xx throws. */
  send(name: keyof typeof API_HANDLERS, request: ApiEvent): Promise<Record<string, unknown>>;
  /** Calls a route's handler and gives its result as the function returns it (not checked, not parsed). */
  call(name: keyof typeof API_HANDLERS, request: ApiEvent): Promise<ApiResult>;
  signIn(licenseKey: string): Promise<string>;
  /** Binds the claimer handler to the in-process claimers (a world that runs the tick). */
  stop(): Promise<void>;
}

export async function startApiWorld(
  endpoint: string,
  options: { readonly claimersWait?: boolean } = {},
): Promise<ApiWorld> {
  const table = await benchTable(endpoint);
  const queues = await startLocalQueues();
  const seedDirectory = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const meter = meterTable(table);
  const keys = parseAppKeys(JSON.stringify(generateStoredAppKeys()));
  const seed = await seedLocalData(
    table,
    createLicenseKeyVault(keys),
    join(seedDirectory, 'seed.json'),
    undefined,
    new Date().toISOString(),
  );
  const claimers = inProcessClaimers(quietLogger, { wait: options.claimersWait ?? true });
  const secret = generateWebhookSecret();
  const deps: AppDependencies = {
    table,
    appKeys: async () => keys,
    secondFactor: {
      requiredForAdmins: false,
      relyingParty: () => ({ id: 'localhost', origin: 'http://localhost' }),
    },
    clock: systemClock,
    logger: quietLogger,
    metrics: new RecordedMetrics(),
    lawyerSecrets: { put: async () => undefined, get: async () => null, delete: async () => undefined },
    webhookQueue: queues.dispatchQueue,
    dueClaimers: claimers.claimers,
    webhookSigningSecret: async () => secret,
    allowPrivateWebhooks: true,
    publicApiUrl: () => 'http://localhost:3000',
  };
  claimers.bind(createDueClaimerHandler(deps));
  const handlers = new Map<string, ApiHandler>();
  const call = (name: keyof typeof API_HANDLERS, request: ApiEvent) => {
    let handler = handlers.get(name);
    if (!handler) {
      handler = API_HANDLERS[name](deps);
      handlers.set(name, handler);
    }
    return handler(request, context);
  };
  const send = async (name: keyof typeof API_HANDLERS, request: ApiEvent) =>
    replyOf(request, await call(name, request));
  return {
    deps,
    table,
    meter,
    queues,
    seed,
    lawyerEmail: 'camille.martin.cabinet@gmail.com',
    send,
    call,
    signIn: async (licenseKey) =>
      (await send('verify-license', apiRequest('POST', '/api/verify-license', { body: { licenseKey } })))
        .token as string,
    stop: async () => {
      rmSync(seedDirectory, { recursive: true, force: true });
      await queues.stop();
      await dropTable(table);
    },
  };
}

/** A function's reply, parsed; one other than 2xx throws. */
function replyOf(request: ApiEvent, result: ApiResult): Record<string, unknown> {
  if ((result.statusCode ?? 500) >= 300) {
    throw new Error(`${request.routeKey}: ${result.statusCode} ${String(result.body).slice(0, 200)}`);
  }
  return JSON.parse(String(result.body ?? '{}')) as Record<string, unknown>;
}

/** A new automation of the seeded lawyer, created as an admin does. */
export async function createWorkflow(
  world: ApiWorld,
  admin: string,
  fields: { readonly name: string; readonly type: string; readonly webhookUrl?: string },
): Promise<string> {
  const workflow = await world.send(
    'workflows',
    apiRequest('POST', '/api/workflows', {
      token: admin,
      body: {
        name: fields.name,
        description: 'Relance les clients pour les pièces manquantes de leur dossier',
        webhookUrl: fields.webhookUrl ?? 'https://n8n.example.com/webhook/client-reminder',
        lawyerEmail: world.lawyerEmail,
        type: fields.type,
      },
    }),
  );
  return workflow.id as string;
}

/**
 * Seeds an admin and a lawyer (as `npm start` does) and `workflows` automations of the lawyer, then
 * measures each request `samples` times, the function and the bare replay of its calls alternating.
 */
export async function measureApiCalls(
  endpoint: string,
  options: { readonly workflows: number; readonly samples: number; readonly log: (line: string) => void },
): Promise<ApiCallsFigures> {
  const world = await startApiWorld(endpoint);
  const { table, meter, send, signIn, seed, lawyerEmail } = world;
  const captured: CapturedCall[] = [];
  let capturing = false;
  table.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const startedAt = performance.now();
      const input = capturing ? structuredClone(args.input as Record<string, unknown>) : {};
      try {
        return await next(args);
      } finally {
        if (capturing) {
          const operation = (context as { commandName?: string }).commandName?.replace(/Command$/, '') ?? '';
          captured.push({ operation, input, startedAt, endedAt: performance.now() });
        }
      }
    },
    { step: 'initialize', name: 'benchCapture', priority: 'high' },
  );
  try {
    const admin = await signIn(seed.adminLicenseKey);
    options.log(`  ${options.workflows} automatisations créées...`);
    const created: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < options.workflows) {
          const index = next++;
          created.push(
            await createWorkflow(world, admin, {
              name: `Relance dossier client ${index}`,
              type: 'client_reminder',
            }),
          );
        }
      }),
    );

    /**
     * Runs one request, metered and captured; then the bare replay of its calls. The function's CPU
     * is its handler's and the serialisation of its result, as Lambda's runtime sends it; the event
     * is built before (API Gateway's work), the reply checked and parsed after (the bench's).
     */
    const measure = async (
      label: string,
      handler: keyof typeof API_HANDLERS,
      requestOf: (sample: number) => ApiEvent,
    ): Promise<RequestFigures> => {
      // Warm: the first requests compile the handler's code, as a warm Lambda has.
      for (let warm = 0; warm < 5; warm++) await send(handler, requestOf(-1 - warm));
      const perSample: { calls: MeteredCall[]; handlerCpu: number; bareCpu: number }[] = [];
      for (let sample = 0; sample < options.samples; sample++) {
        const request = requestOf(sample);
        captured.length = 0;
        const mark = meter.mark();
        capturing = true;
        const before = process.cpuUsage();
        const result = await world.call(handler, request);
        JSON.stringify(result);
        const handlerCpu = cpuMs(process.cpuUsage(before));
        capturing = false;
        replyOf(request, result);
        const calls = meter.since(mark);
        const waves = wavesOf(captured);
        const bareBefore = process.cpuUsage();
        for (const wave of waves) {
          await Promise.all(
            wave.map((call) => {
              const Command = COMMANDS[call.operation];
              if (!Command) throw new Error(`Commande non rejouable : ${call.operation}`);
              return table.doc
                .send(new Command(structuredClone(call.input) as never) as never)
                .catch(() => undefined);
            }),
          );
        }
        perSample.push({ calls, handlerCpu, bareCpu: cpuMs(process.cpuUsage(bareBefore)) });
      }
      const sums = perSample.map(({ calls }) => sumOf(calls));
      return {
        request: label,
        samples: perSample.length,
        calls: Math.max(...sums.map((sum) => sum.calls)),
        inSequence: Math.max(...perSample.map(({ calls }) => callsInSequence(calls))),
        readUnits: sums.reduce((total, sum) => total + sum.readUnits, 0) / sums.length,
        writeUnits: sums.reduce((total, sum) => total + sum.writeUnits, 0) / sums.length,
        handlerCpuMs: median(perSample.map((sample) => sample.handlerCpu)),
        bareCpuMs: median(perSample.map((sample) => sample.bareCpu)),
      };
    };

    const requests: RequestFigures[] = [];
    options.log('  page de liste (admin, première page)...');
    requests.push(
      await measure(
        `GET /api/workflows (admin, ${options.workflows} automations, first page)`,
        'workflows',
        () => apiRequest('GET', '/api/workflows', { token: admin }),
      ),
    );
    options.log('  page de liste (avocat, ses automatisations)...');
    const lawyer = await signIn(seed.lawyerLicenseKey);
    requests.push(
      await measure(
        `GET /api/workflows as a lawyer (his ${options.workflows} automations, first page)`,
        'workflows',
        () => apiRequest('GET', '/api/workflows', { token: lawyer }),
      ),
    );
    options.log('  connexion (clé valide)...');
    requests.push(
      await measure('POST /api/verify-license (valid key)', 'verify-license', () =>
        apiRequest('POST', '/api/verify-license', { body: { licenseKey: seed.lawyerLicenseKey } }),
      ),
    );
    options.log('  création et modification d’une automatisation...');
    requests.push(
      await measure('POST /api/workflows (create)', 'workflows', (sample) =>
        apiRequest('POST', '/api/workflows', {
          token: admin,
          body: {
            name: `Classement des pièces ${sample}`,
            description: 'Classe les pièces reçues dans le dossier du client',
            webhookUrl: 'https://n8n.example.com/webhook/documents',
            lawyerEmail,
            type: 'document_classification',
          },
        }),
      ),
    );
    requests.push(
      await measure('PUT /api/workflows/{id} (rename)', 'workflows', (sample) => {
        const id = created[(sample + created.length) % created.length] as string;
        return apiRequest('PUT', `/api/workflows/${id}`, {
          token: admin,
          routePath: '/api/workflows/{id}',
          pathParameters: { id },
          body: { name: `Relance dossier client ${id.slice(0, 4)} ${sample}` },
        });
      }),
    );
    // Colleagues behind one address signing in at once, five times as many as the lock allows
    // wrong keys: a right key waits for the attempts in flight, it is never refused for them.
    options.log('  clés valides envoyées en même temps depuis une adresse...');
    const sent = 5 * SIGN_IN_THROTTLE.lockAfter;
    const replies = await Promise.allSettled(
      Array.from({ length: sent }, () => signIn(seed.lawyerLicenseKey)),
    );
    const refused = replies.filter(
      (reply) => reply.status === 'rejected' && / 429 /.test(String(reply.reason)),
    ).length;
    const failed = replies.find(
      (reply) => reply.status === 'rejected' && !/ 429 /.test(String(reply.reason)),
    );
    if (failed?.status === 'rejected') throw failed.reason;
    return { requests, workflows: options.workflows, rightKeysAtOnce: { sent, refused } };
  } finally {
    await world.stop();
  }
}
