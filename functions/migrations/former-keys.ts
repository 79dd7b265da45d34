import { WORKFLOWS_PARTITION } from '../data/directory/keys';

/* Where items were written before a layout change: read only by the migrations that move them. */

/**
 * Every partition the all-workflows list was ever written in: the single key (again today's), 16
 * shards (`WORKFLOWS#0..15`), then 4 (the first four of those).
 */
export const formerWorkflowListPartitions = () => [
  WORKFLOWS_PARTITION,
  ...Array.from({ length: 16 }, (_, shard) => `${WORKFLOWS_PARTITION}#${shard}`),
];

/**
 * The failing set before it was spread over the workflows' partitions: one base-table partition,
 * `SK` the workflow id.
 */
export const FORMER_FAILING_PARTITION = 'HEALTH#FAILING';

/**
 * The lawyers', folders' and audit trail's GSI1 shards (`<list>#0..3`) from before each admin list
 * became one partition.
 */
export const formerAdminListShards = (list: string) =>
  Array.from({ length: 4 }, (_, shard) => `${list}#${shard}`);

/** A dispatched run's done marker, beside its last call's history item, before that item became the run's end. */
export const FORMER_DISPATCH_MARKER_PREFIX = 'DISPATCH#';
