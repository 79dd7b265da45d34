import { workflowKey } from '../directory/keys';
import { toWorkflowRecord, type WorkflowRecord } from '../directory/workflows';
import { getItemsByKey } from '../table/batch-get';
import type { Table } from '../table/table';
import { dispatchDoneKey } from './keys';

/** What the worker reads before a call: the workflow as it is now, and whether the run already ended. */
export interface DispatchState {
  /** Null when the workflow was deleted since the run was queued. */
  readonly workflow: WorkflowRecord | null;
  /** The run's done marker exists: an earlier delivery of the message reached its end. */
  readonly done: boolean;
}

/**
 * The workflow item and the run's done marker, both in the workflow's partition, read in one
 * strongly consistent BatchGetItem (as the two GetItems it replaces): the emulator and DynamoDB
 * serve one call instead of two for each message, the same read units. Keys DynamoDB leaves
 * unprocessed are asked again (`getItemsByKey`), so a missing item always means absent.
 */
export async function readDispatchState(
  table: Table,
  workflowId: string,
  dispatchId: string,
): Promise<DispatchState> {
  const found = await getItemsByKey(table, [
    workflowKey(workflowId),
    dispatchDoneKey(workflowId, dispatchId),
  ]);
  const workflow = found.get(workflowKey(workflowId));
  return {
    workflow: workflow ? toWorkflowRecord(workflow) : null,
    done: found.get(dispatchDoneKey(workflowId, dispatchId)) !== undefined,
  };
}
