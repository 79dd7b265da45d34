import { dueAtOfDispatch } from '../../domain/scheduling/due-slots';
import { workflowKey } from '../directory/keys';

/*
 * Key formats of the firms' slots, the dispatches, executions and scheduler runs (the schedule item is
 * in `data/directory/keys.ts`, the due index in `data/table/due-index.ts`).
 * Changing one changes where existing items are looked for: it needs a migration.
 */

/** The call slots of one firm (the workflow's owner e-mail): one item, an attribute per slot. */
export const firmSlotsKey = (lawyerEmail: string) => ({ PK: `FIRM_SLOTS#${lawyerEmail}`, SK: 'SLOTS' });

/** The executions of a workflow live in its partition, newest last. */
export const EXECUTION_PREFIX = 'EXECUTION#';
export const executionSortKey = (startedAt: string, id: string) => `${EXECUTION_PREFIX}${startedAt}#${id}`;

/**
 * A dispatched run's end (delivered, refused for good, or cancelled): its history entry, placed at
 * its due time and named by its dispatch id, so that a second delivery of the run finds it by key
 * before calling and cannot put it twice. Its attempts that are retried keep `executionSortKey`.
 */
export const runEndKey = (workflowId: string, dispatchId: string) => {
  const dueAt = dueAtOfDispatch(workflowId, dispatchId);
  if (dueAt === null) throw new Error(`Identifiant d’envoi illisible : ${dispatchId}`);
  return { PK: workflowKey(workflowId).PK, SK: executionSortKey(dueAt, dispatchId) };
};

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
