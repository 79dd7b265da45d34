import { createHash } from 'node:crypto';

/**
 * Every item key format of the one table, in one place: the primary keys (`PK`/`SK`) of each
 * entity and the partition and sort key values it carries in the indexes (GSI1-3, DueIndex).
 * Only the repositories of functions/data use them; the README's data table points here.
 *
 * Changing a format here changes where existing items are looked for: it needs a migration.
 */

/** `${createdAt}#${id}`: lists in creation order, unique even for items created the same millisecond. */
export const createdSortKey = (createdAt: string, id: string) => `${createdAt}#${id}`;

/** The shard of an id among `shards`: stable across processes, deploys and runtimes. */
export const shardOf = (id: string, shards: number) =>
  createHash('sha256').update(id).digest().readUInt32BE(0) % shards;

/**
 * Shards of the lists written only by an admin's action or a billing event (lawyers, folders, the
 * audit trail, the licences due for purge): a handful of writes a minute, so 4 partitions already
 * give them 4,000 writes/s of room, while each shard costs every page one more Query (on DynamoDB
 * Local, about 1.3 ms of the emulator and 0.5 ms of the function's CPU). No write path of these
 * lists is on one partition key (issue 13).
 */
export const ADMIN_LIST_SHARDS = 4;

/** The index partition of an item of a sharded list: `<list>#<shard of its id>`. */
export const listShardPartition = (list: string, id: string, shards = ADMIN_LIST_SHARDS) =>
  `${list}#${shardOf(id, shards)}`;

/**
 * Every partition a sharded list reads (functions/data/sharded-list.ts): its shards, and `list`
 * itself, the single key its items had before it was sharded. Those items stay there until their
 * next write and are read as one more shard, so no migration is needed; the key sorts alike.
 */
export const listPartitions = (list: string, shards = ADMIN_LIST_SHARDS) => [
  ...Array.from({ length: shards }, (_, shard) => `${list}#${shard}`),
  list,
];

// ---------------------------------------------------------------------------- licences

/**
 * E-mail addresses are compared without case (lawyer e-mails are stored lower-cased too), so a
 * licence bought as `Avocat@Cabinet.fr` is found for the profile `avocat@cabinet.fr`.
 */
export const normaliseLicenseEmail = (userEmail: string) => userEmail.trim().toLowerCase();

/** A licence, by the hash of its key (the key itself is never a key of the table). */
export const licenseItemKey = (keyHash: string) => ({ PK: `LICENSE#${keyHash}`, SK: 'LICENSE' });
/** GSI1: the licences of one e-mail. */
export const licenseEmailPartition = (userEmail: string) =>
  `LICENSE_EMAIL#${normaliseLicenseEmail(userEmail)}`;
/** GSI1 sort key of a licence: its type first, so one type of an e-mail is a prefix query. */
export const licenseTypeSortKey = (licenseType: string, keyHash: string) => `${licenseType}#${keyHash}`;
export const licenseTypePrefix = (licenseType: string) => `${licenseType}#`;

// ---------------------------------------------------------------------------- sessions and sign-in

export const sessionKey = (sessionId: string) => ({ PK: `SESSION#${sessionId}`, SK: 'SESSION' });
/** GSI2 groups the sessions of one licence, so that deleting a lawyer can end them all. */
export const licenseSessionsPartition = (keyHash: string) => `LICENSE_SESSIONS#${keyHash}`;
/** The failed sign-ins of one client (a hash of its address). */
export const signInAttemptsKey = (clientHash: string) => ({ PK: `SIGNIN#${clientHash}`, SK: 'ATTEMPTS' });

// ---------------------------------------------------------------------------- second factor

/** A licence's second factor (TOTP secret, passkeys, recovery-code hashes), in the licence's partition. */
export const secondFactorKey = (keyHash: string) => ({ PK: `LICENSE#${keyHash}`, SK: 'SECOND_FACTOR' });
/** The wrong second-factor codes of one licence in the current window. */
export const secondFactorAttemptsKey = (keyHash: string) => ({
  PK: `LICENSE#${keyHash}`,
  SK: 'SECOND_FACTOR_ATTEMPTS',
});
/** The WebAuthn challenge a session was last given, beside the session. */
export const webAuthnChallengeKey = (sessionId: string, purpose: string) => ({
  PK: `SESSION#${sessionId}`,
  SK: `WEBAUTHN_CHALLENGE#${purpose}`,
});

// ---------------------------------------------------------------------------- directory

export const lawyerKey = (id: string) => ({ PK: `LAWYER#${id}`, SK: 'PROFILE' });
/** Uniqueness claims: one item per e-mail and per licence key hash, naming the lawyer who holds it. */
export const lawyerEmailClaimKey = (email: string) => ({ PK: `UNIQUE#LAWYER_EMAIL#${email}`, SK: 'UNIQUE' });
export const lawyerLicenseClaimKey = (keyHash: string) => ({
  PK: `UNIQUE#LAWYER_LICENSE#${keyHash}`,
  SK: 'UNIQUE',
});
/** GSI1 partition of every lawyer before issue 13; the list's shards are `LAWYERS#<0..3>`. */
export const LAWYERS_PARTITION = 'LAWYERS';
/** The GSI1 partition of a lawyer in the lawyers list (moved there from `LAWYERS` at his next save). */
export const lawyerListPartition = (lawyerId: string) => listShardPartition(LAWYERS_PARTITION, lawyerId);

export const folderKey = (id: string) => ({ PK: `FOLDER#${id}`, SK: 'FOLDER' });
/** GSI1 partition of every folder before issue 13; the list's shards are `FOLDERS#<0..3>`. */
export const FOLDERS_PARTITION = 'FOLDERS';
/** The GSI1 partition of a folder in the folders list (a folder written before stays in `FOLDERS`). */
export const folderListPartition = (folderId: string) => listShardPartition(FOLDERS_PARTITION, folderId);

export const workflowKey = (id: string) => ({ PK: `WORKFLOW#${id}`, SK: 'WORKFLOW' });
/**
 * The schedule state of a workflow (next run, last run, claim, manual-run lock, due-index keys and
 * the few workflow fields the claimer sends a run with), beside it. It carries no list-index key,
 * so a claim or a recorded run writes this small item and its due-index entry alone.
 */
export const scheduleKey = (id: string) => ({ PK: `WORKFLOW#${id}`, SK: 'SCHEDULE' });
/**
 * The prefix of the all-workflows list's GSI1 partitions. Before issue 13 it was itself the one
 * partition of every workflow; `npm run migrate` (bin/migrate.ts) moves such items to their shard.
 */
export const WORKFLOWS_PARTITION = 'WORKFLOWS';
/**
 * Shards of the all-workflows list in GSI1: as many as an admin list. Since the schedule state has
 * an item of its own (issue 13), only an admin's creation, edit or switch writes a workflow item, a
 * handful a minute, and every shard is one more Query for each page of the list. It had 16 while
 * every claim rewrote the workflow item (`formerWorkflowListPartitions`).
 */
export const WORKFLOW_LIST_SHARDS = ADMIN_LIST_SHARDS;
/** The GSI1 partition of a workflow in the all-workflows list: `WORKFLOWS#<hash of id % 4>`. */
export const workflowListPartition = (workflowId: string) =>
  listShardPartition(WORKFLOWS_PARTITION, workflowId, WORKFLOW_LIST_SHARDS);
/**
 * Every partition the all-workflows list reads: its shards only. Items of a former layout are moved
 * to their shard by `npm run migrate` (functions/data/workflow-migration.ts).
 */
export const allWorkflowListPartitions = () =>
  Array.from({ length: WORKFLOW_LIST_SHARDS }, (_, shard) => `${WORKFLOWS_PARTITION}#${shard}`);
/** Where the all-workflows list was written before: the single key, then 16 shards (`WORKFLOWS#0..15`). */
export const formerWorkflowListPartitions = () => [
  WORKFLOWS_PARTITION,
  ...Array.from({ length: 16 }, (_, shard) => `${WORKFLOWS_PARTITION}#${shard}`),
];
/** GSI2: the workflows of one lawyer. */
export const workflowOwnerPartition = (email: string) => `OWNER#${email}`;
/** GSI3 (sparse): the workflows of one folder. */
export const workflowFolderPartition = (folderId: string) => `FOLDER#${folderId}`;

// ---------------------------------------------------------------------------- scheduling and delivery

/**
 * Due index partitions, one claimer each at every tick. 64 keeps each partition of the index far
 * under DynamoDB's 1,000 writes/s (a claim moves the item's sort key: 2 index writes) with 150,000
 * runs due in one minute, and lets 64 claimers work at once. Changing it moves every item's
 * partition: a migration rewriting the schedule items' `DuePK`.
 */
export const DUE_SHARDS = 64;

/** The due index partition of a workflow id: stable across processes, deploys and runtimes. */
export function dueShardOf(workflowId: string): number {
  return shardOf(workflowId, DUE_SHARDS);
}

/** The `DuePK` value of a shard. */
export const duePartition = (shard: number) => `DUE#${shard}`;

/** Every `DuePK` value of the index, for the readers that visit all shards. */
export const allDuePartitions = () => Array.from({ length: DUE_SHARDS }, (_, shard) => duePartition(shard));

/** `DueSK`: `<due time ISO>#<workflow id>`, so that a range query returns the due ones, oldest first. */
export const dueSortKey = (dueAt: string, workflowId: string) => `${dueAt}#${workflowId}`;

/** The due time a `DueSK` value holds. */
export const dueAtOfSortKey = (sortKey: string) => sortKey.slice(0, sortKey.indexOf('#'));

/**
 * The upper bound of a range query for everything due at or before `bound`, whatever the id
 * (`~` sorts after `#` and after every character of an id).
 */
export const dueBound = (bound: Date) => `${bound.toISOString()}~`;

/**
 * The call slots of one firm (the workflow's owner e-mail): one item, an attribute per slot
 * holding the lease of the call in flight (functions/data/firm-slots.ts).
 */
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
 * The runs one due-index shard listed in the last result of a run of that kind (a minute tick, an
 * admin's run), and their ends: one item per shard, each in its own partition, so that a run's
 * reports spread over 64 small items.
 */
export const schedulerRunShardKey = (kind: 'schedule' | 'manual', shard: number) => ({
  PK: `SCHEDULER#LAST_RESULT#${kind}#${String(shard).padStart(2, '0')}`,
  SK: 'SHARD',
});

// ---------------------------------------------------------------------------- billing

export const subscriptionKey = (subscriptionId: string) => ({
  PK: `SUBSCRIPTION#${subscriptionId}`,
  SK: 'SUBSCRIPTION',
});
/** The lease that serialises the work on one subscription. */
export const subscriptionLockKey = (subscriptionId: string) => ({
  PK: `SUBSCRIPTION_LOCK#${subscriptionId}`,
  SK: 'LOCK',
});
/** The billing side of a licence: its subscription, customer and cancellation. */
export const licenseBillingKey = (keyHash: string) => ({ PK: `LICENSE_BILLING#${keyHash}`, SK: 'BILLING' });
/**
 * GSI2: the billing records of one billing address (the buyer's checkout e-mail), which stays the
 * address of the portal link and the licence's e-mails when the licence is associated elsewhere.
 */
export const billingEmailPartition = (email: string) => `BILLING_EMAIL#${normaliseLicenseEmail(email)}`;
export const checkoutKey = (checkoutSessionId: string) => ({
  PK: `CHECKOUT#${checkoutSessionId}`,
  SK: 'CHECKOUT',
});
/**
 * GSI1 partition of the licences whose data is due for purge before issue 13; the list's shards
 * are `LAWYER_PURGE_DUE#<0..3>`, read oldest first by the hourly retention run.
 */
export const PURGE_DUE_PARTITION = 'LAWYER_PURGE_DUE';
/** The GSI1 partition of a licence due for purge, by its key hash. */
export const purgeDuePartition = (keyHash: string) => listShardPartition(PURGE_DUE_PARTITION, keyHash);
/** GSI1 sort key of a licence due for purge: `<purge date ISO>#<key hash>`. */
export const purgeDueSortKey = (purgeAfter: Date, keyHash: string) =>
  `${purgeAfter.toISOString()}#${keyHash}`;
/** The upper bound of a purge-due query: everything due at or before `now`. */
export const purgeDueBound = (now: Date) => `${now.toISOString()}#~`;

export const stripeEventKey = (eventId: string) => ({ PK: `STRIPE_EVENT#${eventId}`, SK: 'STRIPE_EVENT' });

// ---------------------------------------------------------------------------- audit

/** Audit entries, partitioned by month. */
export const AUDIT_PREFIX = 'AUDIT#';
export const auditEntryKey = (entry: { readonly at: string; readonly id: string }) => ({
  PK: `${AUDIT_PREFIX}${entry.at.slice(0, 7)}`,
  SK: `${entry.at}#${entry.id}`,
});
/**
 * GSI1 partition of every audit entry before issue 13; the trail's shards are `AUDIT#<0..3>` (GSI1
 * keys: the table's own `AUDIT#<yyyy-mm>` are a different attribute), newest first across months.
 */
export const AUDIT_INDEX_PARTITION = 'AUDIT';
/** The GSI1 partition of an audit entry, by its id. */
export const auditListPartition = (entryId: string) => listShardPartition(AUDIT_INDEX_PARTITION, entryId);

// ---------------------------------------------------------------------------- automation health

/** The health of a workflow (last success, last failure, consecutive failures, pause), in its partition. */
export const workflowHealthKey = (workflowId: string) => ({ PK: workflowKey(workflowId).PK, SK: 'HEALTH' });

/** The hour of a time, as counter items name it: `yyyy-mm-ddThh` (UTC). */
export const healthHourOf = (at: Date) => at.toISOString().slice(0, 13);

/** The counters of one hour of a workflow's calls, beside it (TTL 8 days). */
export const HEALTH_HOUR_PREFIX = 'HEALTH_HOUR#';
export const workflowHealthHourKey = (workflowId: string, hour: string) => ({
  PK: workflowKey(workflowId).PK,
  SK: `${HEALTH_HOUR_PREFIX}${hour}`,
});

/**
 * The counters of one hour of every call (the admin's dashboard), in `ALL_DELIVERIES_SHARDS`
 * partitions: every call adds to its hour, so one item would take every delivery of the platform
 * (2,200 a second at 1,000,000 automations, past the 1,000 writes a second one item takes). A call
 * adds to the shard of its workflow; the dashboard sums the shards of an hour.
 */
export const ALL_DELIVERIES_SHARDS = 16;
const ALL_DELIVERIES_PREFIX = 'HEALTH#ALL';
export const allDeliveriesPartition = (workflowId: string) =>
  `${ALL_DELIVERIES_PREFIX}#${createHash('sha256').update(workflowId).digest().readUInt32BE(0) % ALL_DELIVERIES_SHARDS}`;
/**
 * Every partition of everyone's counters: the shards, and the single key written before them
 * (`HEALTH#ALL`, its items gone by TTL 8 days after the sharding was deployed; then drop it here).
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

/**
 * The failing set: the automations whose last run failed, one item each, in the workflow's own
 * partition, so that a mass outage's failures (one write each at 2,200 calls/s) land on as many
 * partitions as there are workflows. The dashboard and the daily digest read it through GSI1,
 * longest streak first, in `FAILING_SHARDS` partitions: each failure moves its item's sort key
 * there (a delete and a put of the index), 16 partitions take 16,000 of them a second, and a read
 * of the longest 50 takes about 50 items over the shards whatever the set's size.
 */
export const failingWorkflowKey = (workflowId: string) => ({ PK: workflowKey(workflowId).PK, SK: 'FAILING' });
export const FAILING_SHARDS = 16;
const FAILING_PREFIX = 'HEALTH#FAILING';
/** Every GSI1 partition of the failing set. */
export const failingPartitions = () =>
  Array.from({ length: FAILING_SHARDS }, (_, shard) => `${FAILING_PREFIX}#${shard}`);
/**
 * A failing workflow's GSI1 keys: its shard, and its streak (zero-padded, so that the index orders
 * it as a number) then its last failure, so that a read from the end gives the longest streaks,
 * the latest failures first among equal ones.
 */
export const failingIndexKeys = (
  workflowId: string,
  consecutiveFailures: number,
  lastFailureAt: string | null,
) => ({
  GSI1PK: `${FAILING_PREFIX}#${shardOf(workflowId, FAILING_SHARDS)}`,
  GSI1SK: `${String(consecutiveFailures).padStart(10, '0')}#${lastFailureAt ?? ''}#${workflowId}`,
});
/**
 * Where the failing set was before: one base-table partition, `SK` the workflow id, written at
 * every final failure (its limit: 1,000 writes/s, a mass outage's) and read whole by the
 * dashboard. `npm run migrate` moves its items (functions/data/failing-set-migration.ts).
 */
export const FORMER_FAILING_PARTITION = FAILING_PREFIX;

/** The health settings of /admin/settings (pause threshold, alert address, daily digest). */
export const healthSettingsKey = () => ({ PK: 'SETTINGS', SK: 'HEALTH' });

/** The one alert of a day about a workflow (conditional put: at most one e-mail a day). */
export const healthAlertKey = (workflowId: string, day: string) => ({
  PK: workflowKey(workflowId).PK,
  SK: `HEALTH_ALERT#${day}`,
});

/** The daily digest of a day, sent once. */
export const healthDigestKey = (day: string) => ({ PK: 'HEALTH#DIGEST', SK: day });
