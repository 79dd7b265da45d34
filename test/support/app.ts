import { randomUUID } from 'node:crypto';

import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';

import { createTable, type Table } from '../../functions/data/table/table';
import type { PortalLinkQueue } from '../../functions/domain/billing/portal-link';
import { RecordedMetrics } from '../../functions/domain/core/metrics';
import type { Clock, Logger, Mailer, MailMessage } from '../../functions/domain/core/ports';
import type { LawyerSecretStore } from '../../functions/domain/directory/ports';
import { createPortalLinkSenderHandler } from '../../functions/handlers/billing/portal-link-sender';
import type { ApiEvent, ApiHandler, ApiResult } from '../../functions/http/api-event';
import type { AppDependencies } from '../../functions/runtime/dependencies';
import { type AppKeys, generateStoredAppKeys, parseAppKeys } from '../../functions/security/app-keys';
import { ensureTable, LOCAL_AWS } from '../../lib/local/dynamodb-local';
import type { LawyerSecrets } from '../../shared/schemas/lawyer';
import { testSchedulingPorts } from './scheduling-ports';

/** A clock the test moves by hand; `sleep` records the waits instead of waiting. */
export class TestClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(private current = new Date('2026-11-22T10:00:00.000Z')) {}
  now() {
    return new Date(this.current);
  }
  advance(milliseconds: number) {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
  async sleep(milliseconds: number) {
    this.sleeps.push(milliseconds);
  }
}

/** A logger that keeps its lines so tests can check what was (and was not) logged. */
export class MemoryLogger implements Logger {
  readonly lines: string[] = [];
  private readonly at =
    (level: string) =>
    (message: string, facts: Record<string, unknown> = {}) =>
      this.lines.push(JSON.stringify({ level, message, ...facts }));
  debug = this.at('DEBUG');
  info = this.at('INFO');
  warn = this.at('WARN');
  error = this.at('ERROR');
}

/** The e-mail of tests: kept in memory; it can be told to fail its next sends. */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failures = 0;

  async send(message: MailMessage): Promise<void> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('SES indisponible');
    }
    this.sent.push(message);
  }

  to(address: string): MailMessage[] {
    return this.sent.filter((message) => message.to === address);
  }
}

/** The lawyer secret store of tests: a map, open to assertions. */
export class MemoryLawyerSecretStore implements LawyerSecretStore {
  readonly entries = new Map<string, LawyerSecrets>();
  async put(lawyerId: string, secrets: LawyerSecrets) {
    this.entries.set(lawyerId, structuredClone(secrets));
  }
  async get(lawyerId: string) {
    const secrets = this.entries.get(lawyerId);
    return secrets ? structuredClone(secrets) : null;
  }
  async delete(lawyerId: string) {
    this.entries.delete(lawyerId);
  }
}

/**
 * Portal-link requests as the background gets them: kept until a test delivers them (runs the
 * sender for each), so that it sees what happened before the reply and what after.
 */
export class PendingPortalLinks implements PortalLinkQueue {
  readonly requested: string[] = [];
  async send(email: string) {
    this.requested.push(email);
  }
  /** Runs the sender for every request not yet delivered, one after the other. */
  async deliver(deps: AppDependencies): Promise<void> {
    const sender = createPortalLinkSenderHandler(deps);
    for (let email = this.requested.shift(); email !== undefined; email = this.requested.shift()) {
      await sender({ email });
    }
  }
}

/** The relying party of the test apps: the local runtime's, http://localhost being a secure context. */
export const TEST_RELYING_PARTY = { id: 'localhost', origin: 'http://localhost:3000' } as const;

export interface TestApp extends AppDependencies {
  readonly table: Table;
  readonly keys: AppKeys;
  readonly clock: TestClock;
  readonly logger: MemoryLogger;
  readonly lawyerSecrets: MemoryLawyerSecretStore;
  readonly metrics: RecordedMetrics;
  /** The `whsec_…` secret the test app signs webhook calls with. */
  readonly webhookSecret: string;
  readonly portalLinks: PendingPortalLinks;
}

/**
 * A fresh table in DynamoDB Local and dependencies around it, one per test file. Admin licences
 * need no second factor here unless `requireSecondFactor` (the suites about it) asks for it, as
 * `REQUIRE_SECOND_FACTOR=false` does for the local runtime.
 */
export async function createTestApp(
  endpoint: string,
  options: { readonly requireSecondFactor?: boolean } = {},
): Promise<TestApp> {
  const tableName = `test-${randomUUID()}`;
  await ensureTable(endpoint, tableName);
  const keys = parseAppKeys(JSON.stringify(generateStoredAppKeys()));
  return {
    table: createTable(tableName, { ...LOCAL_AWS, endpoint }),
    keys,
    appKeys: async () => keys,
    clock: new TestClock(),
    logger: new MemoryLogger(),
    metrics: new RecordedMetrics(),
    lawyerSecrets: new MemoryLawyerSecretStore(),
    portalLinks: new PendingPortalLinks(),
    secondFactor: {
      requiredForAdmins: options.requireSecondFactor ?? false,
      relyingParty: () => TEST_RELYING_PARTY,
    },
    ...testSchedulingPorts(),
  };
}

/** Drops a test app's table and closes its client; awaited in each file's afterAll. */
export async function disposeTestApp(app: TestApp): Promise<void> {
  await app.table.doc.send(new DeleteTableCommand({ TableName: app.table.name }));
  app.table.doc.destroy();
}

/** Builds an HTTP API v2 event for a route, as API Gateway (or the local adapter) would. */
export function apiEvent(
  method: string,
  path: string,
  options: {
    body?: unknown;
    rawBody?: string;
    token?: string;
    routePath?: string;
    pathParameters?: Record<string, string>;
    query?: Record<string, string>;
    sourceIp?: string;
    /** More request headers, lower-case as API Gateway passes them. */
    headers?: Record<string, string>;
    /** The browser's cookies, `name=value` each, as API Gateway passes them. */
    cookies?: string[];
    userAgent?: string;
  } = {},
): ApiEvent {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return {
    version: '2.0',
    routeKey: `${method} ${options.routePath ?? path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.cookies?.length ? { cookies: options.cookies } : {}),
    pathParameters: options.pathParameters,
    queryStringParameters: options.query,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path,
        protocol: 'HTTP/1.1',
        sourceIp: options.sourceIp ?? '203.0.113.10',
        userAgent: options.userAgent ?? 'vitest',
      },
      requestId: randomUUID(),
      routeKey: `${method} ${options.routePath ?? path}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  };
}

/** Invokes a handler and parses its JSON reply. */
export async function invoke<T = Record<string, unknown>>(handler: ApiHandler, event: ApiEvent) {
  const result: ApiResult = await handler(event, {} as Context);
  return { statusCode: result.statusCode ?? 200, body: JSON.parse(result.body ?? 'null') as T, result };
}
