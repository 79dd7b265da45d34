import type { HandlerName } from '../shared/routes';
import type { IndexName } from './data/table/table-definition';
import { ADMIN_RUN, CLAIMS, EXECUTE_WEBHOOK_TIMEOUT_SECONDS } from './domain/scheduling/scheduling-settings';

/**
 * What each function may touch: every world gives a function only this (`runtime/declared.ts`), the
 * stack grants it and sets its variables, and the bundler keeps only its adapters.
 */

/** Handler files of the route table (one Lambda function each): a type, from the route table. */
export type { HandlerName };

/**
 * The functions that are not behind the API: the minute tick (its coordinator and its claimers,
 * one per due-index shard), the queue worker, the hourly purge, the recorder of SES bounces and
 * complaints.
 */
export type EventFunctionName =
  | 'scheduled-tick'
  | 'due-claimer'
  | 'webhook-worker'
  | 'data-retention'
  | 'undelivered-mail'
  | 'portal-link-sender'
  | 'data-export-builder';

export type FunctionName = HandlerName | EventFunctionName;

/** The server keys, each its own secret: a function gets only those it uses. */
export type ServerKeyName = 'sessionSigning' | 'licenseHash' | 'licenseEncryption';

export interface FunctionNeeds {
  /**
   * The table: `read` (GetItem, Query) or `readWrite` (and Put, Update, Delete, conditions), and
   * the indexes it queries. Absent: no table at all.
   */
  readonly table?: { readonly access: 'read' | 'readWrite'; readonly indexes: readonly IndexName[] };
  /**
   * The server keys it uses: `sessionSigning` to verify (or sign) session tokens, `licenseHash`
   * to look licences up by key (and hash client addresses), `licenseEncryption` to encrypt or
   * reveal the stored copy of a licence key.
   */
  readonly keys?: readonly ServerKeyName[];
  /**
   * Reads the secret CloudFront sends: every API function has it (`API_DEFAULTS`), to refuse a
   * request that did not come through CloudFront and to trust `CloudFront-Viewer-Address`
   * (sign-in throttling).
   */
  readonly originSecret?: true;
  /** Creates, reads, replaces and deletes lawyers' Google secrets. */
  readonly lawyerSecrets?: true;
  /**
   * The webhook queue: `send` due runs; `redrive` also counts and sends back the dead-lettered
   * ones; `consume` is the worker (its event source receives and deletes, it changes visibility).
   */
  readonly webhookQueue?: 'send' | 'redrive' | 'consume';
  /** Reads the webhook signing secret (signs the calls to n8n). */
  readonly webhookSigning?: true;
  /** Starts the minute tick's claimers (invokes the claimer function, asynchronously). */
  readonly dueClaimers?: true;
  /**
   * Hands a portal-link request to the sender function (invoked asynchronously), so that the
   * reply is sent before any look-up of the e-mail.
   */
  readonly portalLinks?: true;
  /**
   * Stripe: `api` (the secret API key, and the site's address for return links), `webhook` also
   * verifies Stripe's webhook signatures (the signing secret).
   */
  readonly payments?: 'api' | 'webhook';
  /** Sends e-mail (SES in AWS). */
  readonly mailer?: true;
  /**
   * Knows the admin's alert address set at deployment (`-c alertEmail`, else `alarmEmail`): where
   * the health alerts go until an admin types one on /admin/settings.
   */
  readonly adminAlerts?: true;
  /** Knows the site's address, whose host name is the WebAuthn relying party (passkeys). */
  readonly relyingParty?: true;
  /**
   * The firms' data exports: `request` starts the builder (an asynchronous invocation) and signs
   * the download links of the exports bucket (reads its objects); `build` writes the archives there.
   */
  readonly dataExports?: 'request' | 'build';
  /**
   * Invoked asynchronously (by EventBridge Scheduler): an event whose every attempt threw goes to
   * the function's on-failure queue, sent by Lambda with the function's role (send on that queue
   * only). `AppFunction` refuses an on-failure destination a function does not declare.
   */
  readonly asyncFailures?: true;
  /** Its time-out, for an API function under API Gateway's 30 s. @default 10 */
  readonly timeoutSeconds?: number;
  /** Its memory in MB (Lambda bills memory × duration and gives CPU in proportion). @default 512 */
  readonly memoryMb?: number;
}

/** Every protected call verifies its session: the session key and a read of session and licence. */
const SESSION = ['sessionSigning'] as const;

/**
 * What every API function needs besides its own declaration: the origin secret, as each route
 * refuses a request without it (only CloudFront reaches the API).
 */
const API_DEFAULTS = { originSecret: true } as const satisfies FunctionNeeds;

const EVENT_FUNCTIONS: readonly EventFunctionName[] = [
  'scheduled-tick',
  'due-claimer',
  'webhook-worker',
  'data-retention',
  'undelivered-mail',
  'portal-link-sender',
  'data-export-builder',
];

const DECLARED = {
  // Sign-in: the licence by key hash, the throttle counters (client addresses hashed with the
  // same key) and the new session, ending the licence's oldest beyond 20 (its sessions by GSI2);
  // trusts CloudFront's client address only with the origin secret.
  'verify-license': {
    // GSI2 also finds the lawyer of a licence by his own e-mail when the licence names another.
    table: { access: 'readWrite', indexes: ['GSI2'] },
    keys: ['sessionSigning', 'licenseHash'],
    originSecret: true,
  },
  'sign-out': { table: { access: 'readWrite', indexes: [] }, keys: SESSION },
  // The second factor: factors (TOTP secrets encrypted with the licence encryption key), attempt
  // counts, passkey challenges, remembered browsers (their cookies signed with the session key),
  // the session it completes (and the licence's sessions, by GSI2, that a factor change ends or
  // the session cap trims), audit entries; the passkeys' relying party; the e-mail telling a
  // licence's owner that wrong codes locked it.
  'second-factor': {
    table: { access: 'readWrite', indexes: ['GSI2'] },
    keys: ['sessionSigning', 'licenseHash', 'licenseEncryption'],
    relyingParty: true,
    mailer: true,
  },
  // Lawyers, their claims, their Google secrets; deleting one ends his subscription first and
  // confirms it by e-mail; his workflows (GSI2) and sessions go with him. The admin sends a
  // licence key again (decrypted) to the licence's address.
  lawyers: {
    table: { access: 'readWrite', indexes: ['GSI1', 'GSI2'] },
    keys: ['sessionSigning', 'licenseHash', 'licenseEncryption'],
    lawyerSecrets: true,
    payments: 'api',
    mailer: true,
  },
  // A member's own profile with his licence key shown and his Google secrets; a new e-mail moves
  // his sessions (GSI2) with it.
  me: {
    table: { access: 'readWrite', indexes: ['GSI2'] },
    keys: ['sessionSigning', 'licenseHash', 'licenseEncryption'],
    lawyerSecrets: true,
  },
  // Switching scheduling on sends the workflow's first runs to the webhook queue at once.
  workflows: {
    table: { access: 'readWrite', indexes: ['GSI1', 'GSI2', 'GSI3'] },
    keys: SESSION,
    webhookQueue: 'send',
  },
  folders: { table: { access: 'readWrite', indexes: ['GSI1', 'GSI3'] }, keys: SESSION },
  // Look-ups only, the key shown decrypted to its owner or an admin.
  licenses: {
    table: { access: 'read', indexes: ['GSI1'] },
    keys: ['sessionSigning', 'licenseHash', 'licenseEncryption'],
  },
  audit: { table: { access: 'read', indexes: ['GSI1'] }, keys: SESSION },
  // The admin's trigger: one claimer per due-index shard, each awaited, and the run's last result
  // (the claimers claim and queue); counts and redrives dead letters.
  'workflow-scheduler': {
    table: { access: 'readWrite', indexes: [] },
    keys: SESSION,
    dueClaimers: true,
    webhookQueue: 'redrive',
    timeoutSeconds: ADMIN_RUN.timeoutSeconds,
  },
  // Calls one webhook, signed, and records it.
  'execute-webhook': {
    table: { access: 'readWrite', indexes: [] },
    keys: SESSION,
    webhookSigning: true,
    timeoutSeconds: EXECUTE_WEBHOOK_TIMEOUT_SECONDS,
  },
  // The history with each run's report (one BatchGetItem) and the week of health hours that says
  // whether a missing one is late.
  executions: { table: { access: 'read', indexes: [] }, keys: SESSION },
  // Public: a run's completion report, its link checked with the webhook signing secret; recorded
  // once, and counted in the health (a reported failure may pause the automation and alert).
  'completion-report': {
    table: { access: 'readWrite', indexes: [] },
    webhookSigning: true,
    mailer: true,
  },
  // Health: summaries and counters; the workflows lists (GSI1, GSI2) it follows and the failing set
  // by streak (GSI1); 'Reprendre' and the settings write (audited); 'Tester la connexion' calls a
  // webhook, signed, and records it.
  'automation-health': {
    table: { access: 'readWrite', indexes: ['GSI1', 'GSI2'] },
    keys: SESSION,
    webhookSigning: true,
    // 'Reprendre' sends the workflow's first runs at once.
    webhookQueue: 'send',
    timeoutSeconds: EXECUTE_WEBHOOK_TIMEOUT_SECONDS,
    adminAlerts: true,
  },
  // Public, reads nothing of ours: a Stripe Checkout session.
  'create-checkout': { payments: 'api' },
  // Refreshes the licence from Stripe (the reply shows the licence key, decrypted); an ended
  // subscription is confirmed by e-mail.
  'check-subscription': {
    table: { access: 'readWrite', indexes: [] },
    keys: ['sessionSigning', 'licenseHash', 'licenseEncryption'],
    payments: 'api',
    mailer: true,
    timeoutSeconds: 20,
  },
  'customer-portal': {
    table: { access: 'read', indexes: [] },
    keys: ['sessionSigning', 'licenseHash'],
    payments: 'api',
  },
  // Public, and the same reply at once whoever is named: counts the request per client (client
  // addresses hashed with the licence-hash key, CloudFront's trusted with the origin secret), then
  // hands the e-mail to the sender; nothing about the e-mail is read before the reply.
  'request-portal-link': {
    table: { access: 'readWrite', indexes: [] },
    keys: ['licenseHash'],
    originSecret: true,
    portalLinks: true,
  },
  'cancel-subscription': {
    table: { access: 'readWrite', indexes: [] },
    keys: ['sessionSigning', 'licenseHash'],
    payments: 'api',
    mailer: true,
    timeoutSeconds: 20,
  },
  'update-license-email': {
    table: { access: 'readWrite', indexes: [] },
    keys: ['sessionSigning', 'licenseHash'],
    payments: 'api',
  },
  'create-promo-code': { table: { access: 'read', indexes: [] }, keys: SESSION, payments: 'api' },
  // Issues licences (hashed, encrypted copy), writes their state, e-mails the key.
  'stripe-webhook': {
    table: { access: 'readWrite', indexes: [] },
    keys: ['licenseHash', 'licenseEncryption'],
    payments: 'webhook',
    mailer: true,
    timeoutSeconds: 29,
  },
  // The minute tick's coordinator: starts one claimer per shard, records the tick's start. A tick
  // that throws is kept in its on-failure queue.
  'scheduled-tick': { table: { access: 'readWrite', indexes: [] }, dueClaimers: true, asyncFailures: true },
  // One claimer: the due runs of one shard (DueSlots), queued then claimed; a claimer that fails
  // on every attempt is kept in the tick's on-failure queue (its runs stay due meanwhile).
  'due-claimer': {
    table: { access: 'readWrite', indexes: ['DueSlots'] },
    webhookQueue: 'send',
    timeoutSeconds: CLAIMS.claimerTimeoutSeconds,
    asyncFailures: true,
  },
  // The worker: one due run, signed, recorded; its back-off changes the message's visibility.
  'webhook-worker': {
    table: { access: 'readWrite', indexes: [] },
    webhookQueue: 'consume',
    webhookSigning: true,
    // The health of each run, and the alert e-mails when it pauses an automation.
    mailer: true,
    adminAlerts: true,
    // A batch mostly waits for the firms' n8n: its CPU and heap are small (`npm run bench -- cost`
    // prints both), and the wait is billed by the GB-s.
    memoryMb: 256,
  },
  // After the portal-link reply: the billing records of a billing address (GSI2), else the
  // licences of an e-mail (GSI1) and their billing records; the e-mails an address was sent this
  // hour (the address hashed with the licence-hash key); a portal session at Stripe, e-mailed. An
  // invocation that throws on every attempt is kept in its on-failure queue.
  'portal-link-sender': {
    table: { access: 'readWrite', indexes: ['GSI1', 'GSI2'] },
    keys: ['licenseHash'],
    payments: 'api',
    mailer: true,
    asyncFailures: true,
  },
  // The hourly purge: licences due (GSI1), their lawyers' workflows (GSI2), Google secrets; a run
  // that throws on every attempt is kept in its on-failure queue. The admin's daily digest of
  // failing automations (the failing set by streak, GSI1) leaves from this hourly run.
  'data-retention': {
    table: { access: 'readWrite', indexes: ['GSI1', 'GSI2'] },
    lawyerSecrets: true,
    asyncFailures: true,
    mailer: true,
    adminAlerts: true,
  },
  // SES bounces and complaints (EventBridge, asynchronous): marks the licence of a licence e-mail
  // (by its key hash, tagged on the send) and the lawyer holding it (his key's claim item).
  'undelivered-mail': { table: { access: 'readWrite', indexes: [] }, asyncFailures: true },
  // 'Exporter mes données': the firm's turn and its export record, the profile (the member's own
  // through his licence), the audit entry; starts the builder; signs the download link.
  'data-exports': {
    table: { access: 'readWrite', indexes: [] },
    keys: ['sessionSigning', 'licenseHash'],
    dataExports: 'request',
  },
  // The builder: reads the firm's profile, licence, workflows (GSI2), folders, 30 days of history
  // and reports, the audit months; streams the ZIP to the exports bucket; marks the export.
  'data-export-builder': {
    table: { access: 'readWrite', indexes: ['GSI2'] },
    dataExports: 'build',
    timeoutSeconds: 900,
  },
} as const satisfies Record<FunctionName, FunctionNeeds>;

/** Every function's needs: its declaration, plus `API_DEFAULTS` for an API function. */
export const NEEDS: Readonly<Record<FunctionName, FunctionNeeds>> = Object.fromEntries(
  (Object.entries(DECLARED) as [FunctionName, FunctionNeeds][]).map(([name, needs]) => [
    name,
    (EVENT_FUNCTIONS as readonly string[]).includes(name) ? needs : { ...API_DEFAULTS, ...needs },
  ]),
) as Record<FunctionName, FunctionNeeds>;

/** The needs of a function, widened to the declaration's type. */
export const needsOf = (name: FunctionName): FunctionNeeds => NEEDS[name];

export const FUNCTION_NAMES = Object.keys(DECLARED) as FunctionName[];

/** The product areas: the same rooms in every layer of `functions/` (docs/architecture.md). */
export type Area = 'identity' | 'second-factor' | 'directory' | 'scheduling' | 'health' | 'billing';

const AREAS = {
  'verify-license': 'identity',
  'sign-out': 'identity',
  me: 'identity',
  licenses: 'identity',
  'update-license-email': 'identity',
  'second-factor': 'second-factor',
  lawyers: 'directory',
  workflows: 'directory',
  folders: 'directory',
  audit: 'directory',
  'workflow-scheduler': 'scheduling',
  'execute-webhook': 'scheduling',
  executions: 'scheduling',
  'completion-report': 'scheduling',
  'scheduled-tick': 'scheduling',
  'due-claimer': 'scheduling',
  'webhook-worker': 'scheduling',
  'automation-health': 'health',
  'create-checkout': 'billing',
  'check-subscription': 'billing',
  'customer-portal': 'billing',
  'request-portal-link': 'billing',
  'cancel-subscription': 'billing',
  'create-promo-code': 'billing',
  'stripe-webhook': 'billing',
  'data-retention': 'billing',
  'undelivered-mail': 'billing',
  'portal-link-sender': 'billing',
  'data-exports': 'billing',
  'data-export-builder': 'billing',
} as const satisfies Record<FunctionName, Area>;

/** The file a function's bundle starts from (it exports `handler`), from the repository's root. */
export const handlerPathOf = (name: FunctionName): string => `functions/handlers/${AREAS[name]}/${name}.ts`;

/** Whether a function reads a secret of Secrets Manager: a server key, the origin's, a webhook's or Stripe's. */
export const readsSecrets = (needs: FunctionNeeds): boolean =>
  (needs.keys?.length ?? 0) > 0 ||
  needs.originSecret === true ||
  needs.lawyerSecrets === true ||
  needs.webhookSigning === true ||
  needs.payments !== undefined;

/**
 * Compile-time constants of a function's bundle (esbuild `define`): each adapter the AWS root may
 * build is behind one of them, so esbuild drops the adapters a function does not declare, with
 * the SDK clients and Stripe they import. Outside a bundle they are undefined and the root reads
 * the declaration instead.
 */
export function bundleDefines(needs: FunctionNeeds): Record<string, string> {
  const flags: Record<string, boolean> = {
    BUNDLED_NEED_TABLE: needs.table !== undefined,
    BUNDLED_NEED_SECRETS: readsSecrets(needs),
    BUNDLED_NEED_SESSIONS: needs.keys?.includes('sessionSigning') === true,
    BUNDLED_NEED_LAWYER_SECRETS: needs.lawyerSecrets === true,
    BUNDLED_NEED_QUEUE: needs.webhookQueue !== undefined,
    BUNDLED_NEED_REDRIVE: needs.webhookQueue === 'redrive',
    BUNDLED_NEED_CLAIMERS: needs.dueClaimers === true,
    BUNDLED_NEED_PORTAL_LINKS: needs.portalLinks === true,
    BUNDLED_NEED_PAYMENTS: needs.payments !== undefined,
    BUNDLED_NEED_MAILER: needs.mailer === true,
    BUNDLED_NEED_EXPORTS: needs.dataExports !== undefined,
    BUNDLED_NEED_EXPORT_REQUESTS: needs.dataExports === 'request',
  };
  return Object.fromEntries(
    Object.entries(flags).map(([flag, value]) => [`process.env.${flag}`, JSON.stringify(value)]),
  );
}
