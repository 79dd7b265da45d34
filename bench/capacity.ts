import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';

import type { Table } from '../functions/data/table/table';

/**
 * What DynamoDB charged, measured rather than modelled: every command sent through a metered table
 * asks for its consumed capacity (`ReturnConsumedCapacity: INDEXES`, indexes included) and the
 * answer is recorded, with the call's start and end, so that a figure can be read as units per run,
 * as calls per request, and as calls that waited for one another.
 *
 * A conditional write whose condition fails answers with an error that carries no capacity; DynamoDB
 * still bills it (at least one write unit, the item's size if larger), so it is counted as one.
 */

/** One DynamoDB call as the meter saw it. */
export interface MeteredCall {
  /** The command's name, e.g. `UpdateCommand`. */
  readonly command: string;
  readonly readUnits: number;
  readonly writeUnits: number;
  /** Milliseconds since the meter started. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** A condition that failed: billed one write unit. */
  readonly conditionFailed: boolean;
  /** The partition key of the (first) item it read or wrote, when it names one. */
  readonly partition: string | undefined;
}

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);

/**
 * The units of one answer's capacity (one entry, or a list for batch and transaction calls). A
 * read is billed at least its minimum for each item it asks for, found or not (half a unit, one
 * when strongly consistent; a Query one minimum), which DynamoDB Local reports lower: a read that
 * found nothing as 0, a BatchGetItem as its items' total size.
 */
function unitsOf(
  consumed: ConsumedCapacity | ConsumedCapacity[] | undefined,
  read: boolean,
  consistent: boolean,
  itemsAsked: number,
) {
  const entries = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
  const total = entries.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
  const minimum = itemsAsked * (consistent ? 1 : 0.5);
  return read ? { readUnits: Math.max(total, minimum), writeUnits: 0 } : { readUnits: 0, writeUnits: total };
}

/** How many items a read asks for by key: a BatchGetItem's keys, otherwise one. */
function itemsAskedOf(input: Record<string, unknown>): number {
  const requests = input.RequestItems as Record<string, { Keys?: unknown[] }> | undefined;
  if (!requests) return 1;
  return Object.values(requests).reduce((sum, request) => sum + (request.Keys?.length ?? 0), 0);
}

/** The partition key a call names: its key or item, its key condition's value, its first request. */
function partitionOf(input: Record<string, unknown>): string | undefined {
  const key = (input.Key ?? input.Item) as { PK?: unknown } | undefined;
  if (typeof key?.PK === 'string') return key.PK;
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  if (typeof values?.[':pk'] === 'string') return values[':pk'] as string;
  const requests = input.RequestItems as
    | Record<string, { Keys?: { PK?: unknown }[] }[] | { Keys?: { PK?: unknown }[] }>
    | undefined;
  const first = requests ? Object.values(requests)[0] : undefined;
  const keys = Array.isArray(first) ? undefined : first?.Keys;
  if (typeof keys?.[0]?.PK === 'string') return keys[0].PK as string;
  const transact = input.TransactItems as
    | Record<string, { Key?: { PK?: unknown }; Item?: { PK?: unknown } }>[]
    | undefined;
  const firstWrite = transact?.[0] ? Object.values(transact[0])[0] : undefined;
  const written = firstWrite?.Key?.PK ?? firstWrite?.Item?.PK;
  return typeof written === 'string' ? written : undefined;
}

/** The records of a metered client, from which windows of calls are read. */
export class CapacityMeter {
  readonly calls: MeteredCall[] = [];
  private readonly origin = performance.now();

  now(): number {
    return performance.now() - this.origin;
  }

  /** The calls recorded since `mark` (an index into `calls`, from `mark()`). */
  since(mark: number): MeteredCall[] {
    return this.calls.slice(mark);
  }

  mark(): number {
    return this.calls.length;
  }
}

/**
 * Meters the table's document client in place (a middleware on its stack): every handler, service
 * or repository given this table is measured, whatever it sends.
 */
export function meterTable(table: Table, meter = new CapacityMeter()): CapacityMeter {
  table.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = (context as { commandName?: string }).commandName?.replace(/Command$/, '') ?? '';
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'INDEXES';
      const partition = partitionOf(input);
      const consistent =
        input.ConsistentRead === true ||
        Object.values((input.RequestItems as Record<string, { ConsistentRead?: boolean }>) ?? {}).some(
          (request) => request.ConsistentRead === true,
        );
      const startedAt = meter.now();
      try {
        const result = await next(args);
        const output = result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] };
        meter.calls.push({
          command: operation,
          ...unitsOf(output.ConsumedCapacity, READS.has(operation), consistent, itemsAskedOf(input)),
          startedAt,
          endedAt: meter.now(),
          conditionFailed: false,
          partition,
        });
        return result;
      } catch (error) {
        const failedCondition =
          error instanceof Error &&
          (error.name === 'ConditionalCheckFailedException' || error.name === 'TransactionCanceledException');
        meter.calls.push({
          command: operation,
          readUnits: 0,
          writeUnits: failedCondition ? 1 : 0,
          startedAt,
          endedAt: meter.now(),
          conditionFailed: failedCondition,
          partition,
        });
        throw error;
      }
    },
    { step: 'initialize', name: 'benchCapacityMeter', override: true },
  );
  return meter;
}

/** Read and write units, and calls, of a set of calls. */
export interface CapacitySum {
  readonly calls: number;
  readonly readUnits: number;
  readonly writeUnits: number;
}

export function sumOf(calls: readonly MeteredCall[]): CapacitySum {
  return {
    calls: calls.length,
    readUnits: calls.reduce((sum, call) => sum + call.readUnits, 0),
    writeUnits: calls.reduce((sum, call) => sum + call.writeUnits, 0),
  };
}

/**
 * How many of the calls waited for one another: the longest chain of calls each of which started
 * after the one before it in the chain had ended. Calls sent at once (a `Promise.all`) overlap and
 * count once; a call that needs another's answer starts after it and adds one.
 */
export function callsInSequence(calls: readonly MeteredCall[]): number {
  const sorted = [...calls].sort((a, b) => a.startedAt - b.startedAt);
  const chain = new Array<number>(sorted.length).fill(1);
  for (let index = 0; index < sorted.length; index++) {
    const call = sorted[index] as MeteredCall;
    for (let before = 0; before < index; before++) {
      const earlier = sorted[before] as MeteredCall;
      if (earlier.endedAt <= call.startedAt) {
        chain[index] = Math.max(chain[index] as number, (chain[before] as number) + 1);
      }
    }
  }
  return Math.max(0, ...chain);
}

/** SQS requests by action, counted on the client every queue call goes through. */
export class SqsRequestCounter {
  readonly byAction = new Map<string, number>();

  total(): number {
    return [...this.byAction.values()].reduce((sum, count) => sum + count, 0);
  }

  snapshot(): Map<string, number> {
    return new Map(this.byAction);
  }

  /** Requests since a snapshot, by action. */
  since(snapshot: ReadonlyMap<string, number>): Map<string, number> {
    return new Map(
      [...this.byAction].map(([action, count]) => [action, count - (snapshot.get(action) ?? 0)] as const),
    );
  }
}

/** Counts every request the SQS client sends, by action (each one billed as one request). */
export function countSqsRequests(client: SQSClient, counter = new SqsRequestCounter()): SqsRequestCounter {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const action = (context as { commandName?: string }).commandName?.replace(/Command$/, '') ?? '';
      counter.byAction.set(action, (counter.byAction.get(action) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'benchSqsCounter', override: true },
  );
  return counter;
}
