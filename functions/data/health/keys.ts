import { createHash } from 'node:crypto';

import { workflowHealthKey, workflowKey } from '../directory/keys';
import type { HourCounterSpec } from '../table/hour-counters';

/*
 * Key formats of automation health: a workflow's health, its hourly counters, everyone's and each
 * owner's counters, the failing set, the settings, alerts and digests. Changing one needs a migration.
 */

/** The health of a workflow (last success, last failure, consecutive failures, pause), in its partition. */
export { workflowHealthKey };

/** The counters of one hour of a workflow's calls, beside it (TTL 8 days). */
export const HEALTH_HOUR_PREFIX = 'HEALTH_HOUR#';
export const workflowHealthHourKey = (workflowId: string, hour: string) => ({
  PK: workflowKey(workflowId).PK,
  SK: `${HEALTH_HOUR_PREFIX}${hour}`,
});

/**
 * The counters of one hour of every call (the admin's dashboard), sharded because every call of the
 * platform adds to its hour: a call adds to the shard of its workflow; the dashboard sums the shards.
 */
export const ALL_DELIVERIES_SHARDS = 16;
const ALL_DELIVERIES_PREFIX = 'HEALTH#ALL';
export const allDeliveriesPartition = (workflowId: string) =>
  `${ALL_DELIVERIES_PREFIX}#${createHash('sha256').update(workflowId).digest().readUInt32BE(0) % ALL_DELIVERIES_SHARDS}`;
/**
 * Every partition of everyone's counters: the shards, and the single key written before them
 * (`HEALTH#ALL`, whose items TTL removes).
 */
export const allDeliveriesPartitions = () => [
  ...Array.from({ length: ALL_DELIVERIES_SHARDS }, (_, shard) => `${ALL_DELIVERIES_PREFIX}#${shard}`),
  ALL_DELIVERIES_PREFIX,
];
/** The counters of one hour of one lawyer's calls (his own dashboard), by his e-mail at the time. */
export const ownerDeliveriesPartition = (email: string) => `HEALTH#OWNER#${email.toLowerCase()}`;
export const deliveryHourKey = (partition: string, hour: string) => ({
  PK: partition,
  SK: `${HEALTH_HOUR_PREFIX}${hour}`,
});

/*
 * The failing set and the paused list: their keys live with the workflow's (`data/directory/keys.ts`),
 * whose deletion removes them and whose admin filters read them.
 */
export {
  FAILING_SHARDS,
  failingIndexKeys,
  failingPartitions,
  PAUSED_PARTITION,
  pausedIndexKeys,
} from '../directory/keys';

/** The health settings of /admin/settings (pause threshold, alert address, daily digest). */
export const healthSettingsKey = () => ({ PK: 'SETTINGS', SK: 'HEALTH' });

/** The one alert of a day about a workflow (conditional put: at most one e-mail a day). */
export const healthAlertKey = (workflowId: string, day: string) => ({
  PK: workflowKey(workflowId).PK,
  SK: `HEALTH_ALERT#${day}`,
});

/** The daily digest of a day, sent once. */
export const healthDigestKey = (day: string) => ({ PK: 'HEALTH#DIGEST', SK: day });

/** How long an hour's counters are kept: the 7-day window and a day to spare. */
const HOUR_COUNTERS_TTL_SECONDS = 8 * 86_400;

/** An hour's counters item: its kind and when it expires (8 days after its hour). */
const hourItemOf = (hour: string) => ({
  entity: 'HealthHour',
  expiresAt: Math.floor(Date.parse(`${hour}:00:00.000Z`) / 1000) + HOUR_COUNTERS_TTL_SECONDS,
});

/**
 * A workflow's counters of the current hour, kept on its schedule item (each run's end writes that
 * item anyway) as `runsHour` and `runs<Counter>`, moved to its hour item when the next hour starts.
 */
export const workflowHourCounters = (workflowId: string): HourCounterSpec => ({
  prefix: 'runs',
  hourKey: (hour) => workflowHealthHourKey(workflowId, hour),
  hourItem: hourItemOf,
});

/**
 * A lawyer's counters of the current hour, kept on his firm's call slots item (each call's slot is
 * given back there anyway) as `ownerHour` and `owner<Counter>`, moved to his hour item when the next
 * hour starts.
 */
export const ownerHourCounters = (email: string): HourCounterSpec => ({
  prefix: 'owner',
  hourKey: (hour) => deliveryHourKey(ownerDeliveriesPartition(email), hour),
  hourItem: hourItemOf,
});
