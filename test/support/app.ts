import { randomUUID } from 'node:crypto';

import type { Context } from 'aws-lambda';

import { createTable, type Table } from '../../functions/data/table';
import type { ApiEvent, ApiHandler, ApiResult } from '../../functions/http/api-event';
import type { AppDependencies, Clock, Logger } from '../../functions/runtime/dependencies';
import { type AppKeys, generateStoredAppKeys, parseAppKeys } from '../../functions/security/app-keys';
import { ensureTable, LOCAL_AWS } from '../../lib/local/dynamodb-local';

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
  info = (message: string, facts: Record<string, unknown> = {}) =>
    this.lines.push(JSON.stringify({ message, ...facts }));
  warn = this.info;
  error = this.info;
}

export interface TestApp extends AppDependencies {
  readonly table: Table;
  readonly keys: AppKeys;
  readonly clock: TestClock;
  readonly logger: MemoryLogger;
}

/** A fresh table in DynamoDB Local and dependencies around it, one per test file. */
export async function createTestApp(endpoint: string): Promise<TestApp> {
  const tableName = `test-${randomUUID()}`;
  await ensureTable(endpoint, tableName);
  const keys = parseAppKeys(JSON.stringify(generateStoredAppKeys()));
  return {
    table: createTable(tableName, { ...LOCAL_AWS, endpoint }),
    keys,
    appKeys: async () => keys,
    clock: new TestClock(),
    logger: new MemoryLogger(),
  };
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
    sourceIp?: string;
  } = {},
): ApiEvent {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return {
    version: '2.0',
    routeKey: `${method} ${options.routePath ?? path}`,
    rawPath: path,
    rawQueryString: '',
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    pathParameters: options.pathParameters,
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
        userAgent: 'vitest',
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
