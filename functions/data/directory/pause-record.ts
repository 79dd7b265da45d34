import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';

import type { AutomaticPause } from '../../domain/directory/ports';
import type { Table } from '../table/table';
import { pausedIndexKeys, workflowHealthKey } from './keys';

/*
 * The pause record on a workflow's health item: its time and reason, and its entry in the paused
 * list. Written in the scheduling switch's transaction, so that the list holds a workflow exactly
 * while the pause does: health's item, written by the directory's switch.
 */

/** The automatic pause: its time and reason, and the workflow's entry in the paused list. */
export function pauseRecordUpdate(table: Table, pause: AutomaticPause) {
  const index = pausedIndexKeys(pause.workflowId, pause.at);
  return {
    TableName: table.name,
    Key: workflowHealthKey(pause.workflowId),
    UpdateExpression:
      'SET entity = :entity, workflowId = :id, pausedAt = :at, pauseReason = :reason, GSI1PK = :pk, GSI1SK = :sk',
    ExpressionAttributeValues: {
      ':entity': 'WorkflowHealth',
      ':id': pause.workflowId,
      ':at': pause.at,
      ':reason': pause.reason,
      ':pk': index.GSI1PK,
      ':sk': index.GSI1SK,
    },
  } satisfies UpdateCommandInput;
}

/** The end of a pause: its record and its entry in the paused list go; the streak is the runs'. */
export function pauseEndUpdate(table: Table, workflowId: string) {
  return {
    TableName: table.name,
    Key: workflowHealthKey(workflowId),
    UpdateExpression: 'REMOVE pausedAt, pauseReason, GSI1PK, GSI1SK',
    // Without a health item there is no pause to end (and none is created).
    ConditionExpression: 'attribute_exists(PK)',
  } satisfies UpdateCommandInput;
}
