import { GetCommand } from '@aws-sdk/lib-dynamodb';

import type { ExecutionTrigger } from '../../../shared/schemas/scheduler';
import { dueAtOfDispatch } from '../../domain/scheduling/due-slots';
import type { RecordedRun } from '../../domain/scheduling/manual-run';
import type { SentRun } from '../../domain/scheduling/ports';
import { workflowKey } from '../directory/keys';
import type { Table } from '../table/table';
import { executionSortKey, runEndKey } from './keys';

const DUE_TRIGGERS: readonly ExecutionTrigger[] = ['schedule', 'manual_force', 'redrive'];

/**
 * One row of the history as 'Rejouer' needs it, read by its key: a dispatched run's end by its id
 * (its dispatch id), any other row by its start and id. One GetItem.
 */
export async function recordedRunOf(
  table: Table,
  workflowId: string,
  startedAt: string,
  executionId: string,
): Promise<RecordedRun | null> {
  const runEnd = dueAtOfDispatch(workflowId, executionId) !== null;
  const { Item } = await table.doc.send(
    new GetCommand({
      TableName: table.name,
      Key: runEnd
        ? runEndKey(workflowId, executionId)
        : { PK: workflowKey(workflowId).PK, SK: executionSortKey(startedAt, executionId) },
    }),
  );
  if (Item?.entity !== 'Execution' || Item.startedAt !== startedAt) return null;
  const trigger = Item.trigger as ExecutionTrigger;
  const dispatchId = typeof Item.dispatchId === 'string' ? Item.dispatchId : null;
  const runId = typeof Item.runId === 'string' ? Item.runId : dispatchId;
  const replayOf = (Item.replayOf as SentRun | undefined) ?? null;
  return {
    trigger,
    outcome: Item.outcome as RecordedRun['outcome'],
    // A replay is sent again as what it replayed; any other run as itself.
    sentAs: replayOf
      ? replayOf
      : runId === null
        ? null
        : {
            webhookId: runId,
            trigger,
            dueAt:
              dispatchId && DUE_TRIGGERS.includes(trigger) ? dueAtOfDispatch(workflowId, dispatchId) : null,
          },
  };
}
