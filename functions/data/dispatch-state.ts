import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';

import { dispatchDoneKey, workflowKey } from './keys';
import type { Table } from './table';
import { toWorkflowRecord, type WorkflowRecord } from './workflows';

/** What the worker reads before a call: the workflow as it is now, and whether the run already ended. */
export interface DispatchState {
  /** Null when the workflow was deleted since the run was queued. */
  readonly workflow: WorkflowRecord | null;
  /** The run's done marker exists: an earlier delivery of the message reached its end. */
  readonly done: boolean;
}

/**
 * The workflow item and the run's done marker, both in the workflow's partition, read in one
 * BatchGetItem (strongly consistent, as the two GetItems it replaces): the emulator and DynamoDB
 * serve one call instead of two for each message, the same read units. Keys DynamoDB leaves
 * unprocessed (throttling) are asked again until none is left, so a missing item always means absent.
 */
export async function readDispatchState(
  table: Table,
  workflowId: string,
  dispatchId: string,
): Promise<DispatchState> {
  const workflowSortKey = workflowKey(workflowId).SK;
  const doneSortKey = dispatchDoneKey(workflowId, dispatchId).SK;
  let keys: Record<string, unknown>[] = [workflowKey(workflowId), dispatchDoneKey(workflowId, dispatchId)];
  let workflow: WorkflowRecord | null = null;
  let done = false;
  while (keys.length > 0) {
    const { Responses, UnprocessedKeys } = await table.doc.send(
      new BatchGetCommand({ RequestItems: { [table.name]: { Keys: keys, ConsistentRead: true } } }),
    );
    for (const item of Responses?.[table.name] ?? []) {
      if (item.SK === workflowSortKey) workflow = toWorkflowRecord(item);
      else if (item.SK === doneSortKey) done = true;
    }
    keys = (UnprocessedKeys?.[table.name]?.Keys ?? []) as Record<string, unknown>[];
  }
  return { workflow, done };
}
