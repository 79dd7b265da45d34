import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { workflowKey } from '../data/directory/keys';
import { EXECUTION_PREFIX, runEndKey } from '../data/scheduling/keys';
import { queryAll } from '../data/table/query-all';
import type { Table } from '../data/table/table';
import { applied } from '../data/table/table-errors';
import { WEBHOOK_QUEUE } from '../domain/scheduling/scheduling-settings';
import { FORMER_DISPATCH_MARKER_PREFIX } from './former-keys';
import { workflowIdPages } from './workflow-ids';

/** What a run did: former markers read, runs moved to their end's key, markers left (no call found, or moved since). */
export interface RunEndsMigrationRun {
  readonly markers: number;
  readonly moved: number;
  readonly left: number;
}

/**
 * Moves each run that ended in the former shape (its last call's history item at its start, a
 * `DISPATCH#<dispatch id>` marker beside it) to its run's end key, where a second delivery of the run
 * now looks before calling: one transaction per run puts the call there (unless an end is there
 * already), deletes it from its former place and deletes the marker. Only the runs due within the
 * dead-letter queue's retention (the longest a message of theirs can still come back); older markers
 * expire with their history. The all-workflows list a page at a time (Query, never Scan), then two
 * Queries of a workflow's partition when it has markers. Idempotent and safe while the worker runs.
 */
export async function migrateRunEnds(
  table: Table,
  now: Date = new Date(),
  pageSize = 100,
): Promise<RunEndsMigrationRun> {
  const since = new Date(now.getTime() - WEBHOOK_QUEUE.deadLetterRetentionSeconds * 1000).toISOString();
  let markers = 0;
  let moved = 0;
  for await (const ids of workflowIdPages(table, pageSize)) {
    for (const workflowId of ids) {
      const { PK } = workflowKey(workflowId);
      const found = await queryAll(table, {
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': PK,
          ':from': `${FORMER_DISPATCH_MARKER_PREFIX}${workflowId}:${since}`,
          ':to': `${FORMER_DISPATCH_MARKER_PREFIX}${workflowId}:~`,
        },
        ProjectionExpression: 'SK',
      });
      if (found.length === 0) continue;
      markers += found.length;
      const dispatchIds = new Set(
        found.map((marker) => (marker.SK as string).slice(FORMER_DISPATCH_MARKER_PREFIX.length)),
      );
      // The run's last call: the latest of its history items that no retry followed.
      const lastCalls = new Map<string, Record<string, unknown>>();
      const history = await queryAll(table, {
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': PK,
          ':from': `${EXECUTION_PREFIX}${since}`,
          ':to': `${EXECUTION_PREFIX}~`,
        },
      });
      for (const item of history) {
        const dispatchId = item.dispatchId as string | undefined;
        if (!dispatchId || !dispatchIds.has(dispatchId) || item.retry) continue;
        if (item.SK === runEndKey(workflowId, dispatchId).SK) continue;
        const known = lastCalls.get(dispatchId);
        if (!known || (known.startedAt as string) < (item.startedAt as string))
          lastCalls.set(dispatchId, item);
      }
      for (const [dispatchId, call] of lastCalls) {
        const end = runEndKey(workflowId, dispatchId);
        const move = new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: table.name,
                Item: { ...call, ...end, id: dispatchId },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            },
            {
              Delete: {
                TableName: table.name,
                Key: { PK, SK: call.SK },
                ConditionExpression: 'attribute_exists(PK)',
              },
            },
            {
              Delete: {
                TableName: table.name,
                Key: { PK, SK: `${FORMER_DISPATCH_MARKER_PREFIX}${dispatchId}` },
              },
            },
          ],
        });
        if (await applied(table.doc.send(move))) moved += 1;
      }
    }
  }
  return { markers, moved, left: markers - moved };
}
