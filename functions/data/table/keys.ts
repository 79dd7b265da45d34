import { createHash } from 'node:crypto';

/*
 * The key formats shared by every area: creation-ordered sort keys and sharded lists. Each area's
 * own formats are in `data/<area>/keys.ts`; changing a format there needs a migration.
 */

/** `${createdAt}#${id}`: lists in creation order, unique even for items created the same millisecond. */
export const createdSortKey = (createdAt: string, id: string) => `${createdAt}#${id}`;

/** The shard of an id among `shards`: stable across processes, deploys and runtimes. */
export const shardOf = (id: string, shards: number) =>
  createHash('sha256').update(id).digest().readUInt32BE(0) % shards;

/**
 * Shards of a sharded list (the licences due for purge): each shard costs every page one Query, so
 * a list only shards where its writes are more than one partition takes.
 */
export const ADMIN_LIST_SHARDS = 4;

/** The index partition of an item of a sharded list: `<list>#<shard of its id>`. */
export const listShardPartition = (list: string, id: string, shards = ADMIN_LIST_SHARDS) =>
  `${list}#${shardOf(id, shards)}`;

/**
 * Every partition a sharded list reads (`sharded-list.ts`): its shards, and `list` itself, where
 * items written before the sharding stay until their next write.
 */
export const listPartitions = (list: string, shards = ADMIN_LIST_SHARDS) => [
  ...Array.from({ length: shards }, (_, shard) => `${list}#${shard}`),
  list,
];
