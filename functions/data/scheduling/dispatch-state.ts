import type { Dispatches, DispatchState } from '../../domain/scheduling/ports';
import { workflowKey } from '../directory/keys';
import { toWorkflowRecord } from '../directory/workflows';
import { getItemsByKey } from '../table/batch-get';
import type { Table } from '../table/table';
import { runEndKey } from './keys';

export class DispatchStateRepository implements Dispatches {
  constructor(private readonly table: Table) {}

  /**
   * The workflow item and the run's end (its history entry at `runEndKey`), both in the workflow's
   * partition, read in one strongly consistent BatchGetItem (as the two GetItems it replaces): the
   * emulator and DynamoDB serve one call instead of two for each message, the same read units. Keys
   * DynamoDB leaves unprocessed are asked again (`getItemsByKey`), so a missing item always means absent.
   */
  async stateOf(workflowId: string, dispatchId: string): Promise<DispatchState> {
    const found = await getItemsByKey(this.table, [
      workflowKey(workflowId),
      runEndKey(workflowId, dispatchId),
    ]);
    const workflow = found.get(workflowKey(workflowId));
    return {
      workflow: workflow ? toWorkflowRecord(workflow) : null,
      done: found.get(runEndKey(workflowId, dispatchId)) !== undefined,
    };
  }
}
