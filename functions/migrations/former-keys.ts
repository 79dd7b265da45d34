import { WORKFLOWS_PARTITION } from '../data/directory/keys';

/* Where items were written before a layout change: read only by the migrations that move them. */

/** The all-workflows list before it was sharded by 4: the single key, then 16 shards (`WORKFLOWS#0..15`). */
export const formerWorkflowListPartitions = () => [
  WORKFLOWS_PARTITION,
  ...Array.from({ length: 16 }, (_, shard) => `${WORKFLOWS_PARTITION}#${shard}`),
];

/**
 * The failing set before it was spread over the workflows' partitions: one base-table partition,
 * `SK` the workflow id.
 */
export const FORMER_FAILING_PARTITION = 'HEALTH#FAILING';
