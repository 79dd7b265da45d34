import { workflowKey } from '../directory/keys';

/*
 * Key formats of the firms' slots, the dispatches, executions and scheduler runs (the schedule item is
 * in `data/directory/keys.ts`, the due index in `data/table/due-index.ts`).
 * Changing one changes where existing items are looked for: it needs a migration.
 */

/** The call slots of one firm (the workflow's owner e-mail): one item, an attribute per slot. */
export const firmSlotsKey = (lawyerEmail: string) => ({ PK: `FIRM_SLOTS#${lawyerEmail}`, SK: 'SLOTS' });

/** A dispatched run that reached its end (delivered, or refused for good): never called again. */
export const dispatchDoneKey = (workflowId: string, dispatchId: string) => ({
  PK: workflowKey(workflowId).PK,
  SK: `DISPATCH#${dispatchId}`,
});
/** The executions of a workflow live in its partition, newest last. */
export const EXECUTION_PREFIX = 'EXECUTION#';
export const executionSortKey = (startedAt: string, id: string) => `${EXECUTION_PREFIX}${startedAt}#${id}`;

/** The last result of each kind of scheduler run. */
export const schedulerRunKey = (kind: 'schedule' | 'manual') => ({
  PK: 'SCHEDULER',
  SK: `LAST_RESULT#${kind}`,
});
/**
 * The runs one due-index shard listed in the last result of a run of that kind, and their ends:
 * one item per shard, each in its own partition, so that a run's reports spread over small items.
 */
export const schedulerRunShardKey = (kind: 'schedule' | 'manual', shard: number) => ({
  PK: `SCHEDULER#LAST_RESULT#${kind}#${String(shard).padStart(2, '0')}`,
  SK: 'SHARD',
});

/** A run's completion report, in its workflow's partition, by the id its link names (one per run). */
export const REPORT_PREFIX = 'REPORT#';
export const completionReportKey = (workflowId: string, runId: string) => ({
  PK: workflowKey(workflowId).PK,
  SK: `${REPORT_PREFIX}${runId}`,
});
/** A workflow's reported failures in a row, beside it (a reported success sets it back to 0). */
export const processingStreakKey = (workflowId: string) => ({
  PK: workflowKey(workflowId).PK,
  SK: 'REPORT_STREAK',
});
