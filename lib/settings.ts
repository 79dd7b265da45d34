import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';

import { DUE_SHARDS } from '../functions/domain/scheduling/scheduling-settings';
import { EXAMPLE_LEGAL_DETAILS, EXAMPLE_MARK, type LegalDetails } from '../shared/legal-details';
import { ROUTES, routeKey } from '../shared/routes';

/** The deployment stages: two can live in one account, each its own stack. */
export const STAGES = ['dev', 'prod'] as const;
export type StageName = (typeof STAGES)[number];

/** Requests per second (steady) and burst of one API Gateway throttle. */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** The optional custom domain of the site (certificate and WAF live in a us-east-1 companion stack). */
export interface CustomDomain {
  /** The site's host name, e.g. `app.cabinet.example`. */
  readonly domainName: string;
}

/**
 * Everything a deployment may differ in, read once from the CDK context (`-c key=value`) and
 * checked before any construct is built, so a missing or wrong setting fails the synthesis with
 * one message naming each problem and the flag that fixes it.
 */
export interface StageSettings {
  readonly stage: StageName;
  /** `AssistantJuridique-<stage>`: two stages never share a resource name. */
  readonly stackName: string;
  /** Where the data lives: eu-west-3 (Paris) unless `-c region=` says otherwise. */
  readonly region: string;
  /** Sender of the billing e-mails, a verified SES identity of the region. */
  readonly mailFrom: string;
  /**
   * The publisher's legal details, shown on /privacy and in the e-mails' footer; required in prod,
   * example values ('Exemple — …') in dev.
   */
  readonly legalDetails: LegalDetails;
  /** Receives every alarm by e-mail; required in prod. */
  readonly alarmEmail?: string;
  /**
   * Receives the health alerts meant for the admin (an automation paused, the daily digest) until
   * an admin sets an address on /admin/settings: `-c alertEmail`, else `alarmEmail`.
   */
  readonly adminAlertEmail?: string;
  /** The API stage's throttle, applied to each route without one of its own. */
  readonly apiThrottle: Throttle;
  /**
   * Routes with a throttle of their own (route key → throttle): signing in (guessing keys),
   * buying (creates Stripe sessions) and Stripe's webhooks, so that none of them can eat the
   * others' budget nor the firms' everyday calls.
   */
  readonly routeThrottles: Readonly<Record<string, Throttle>>;
  /** How long function and API access logs are kept. */
  readonly logRetention: logs.RetentionDays;
  /** Log level of the functions (Powertools `POWERTOOLS_LOG_LEVEL`). */
  readonly logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /**
   * What happens to the data (table, secrets, buckets, logs) when the stack is deleted or a
   * resource replaced: kept in prod, except after a first create that rolled back; a dev stage
   * drops everything so that it can be destroyed and rebuilt.
   */
  readonly removalPolicy: RemovalPolicy;
  /** DynamoDB deletion protection: on in prod; off in dev so that `cdk destroy` can finish. */
  readonly tableDeletionProtection: boolean;
  /** How often an alarm that stays in ALARM (dead letters waiting) is sent again. */
  readonly renotifyEvery: Duration;
  /** A second region holding a read replica of the server-keys secret (recovery), if any. */
  readonly keysReplicaRegion?: string;
  /** The site's own domain name, if any (off by default). */
  readonly customDomain?: CustomDomain;
  /** A WAF web ACL with a rate-based rule in front of CloudFront (off by default). */
  readonly waf: boolean;
  /**
   * With the WAF: requests one client address may send in 5 minutes before it is blocked (WAF's
   * minimum is 10). A firm's lawyers may share one office address: the limit is per firm, then.
   */
  readonly wafRateLimit: number;
  /**
   * With the WAF: requests one client address may send in 5 minutes to the sign-in calls (the
   * licence key, the second factor, the portal link) before they are blocked for it, so that no
   * single address can spend the sign-in routes' throttles (docs/security-and-sessions.md).
   */
  readonly wafSignInRateLimit: number;
  /**
   * With a custom domain, the API's own host name (`api.<domain>`), CloudFront's only way in: the
   * execute-api address is switched off (docs/security-and-sessions.md).
   */
  readonly apiOriginDomainName?: string;
  /**
   * Webhook calls in flight at once over every firm (the worker's maximum concurrency); each firm
   * also has its own 5. It must fit the account's Lambda concurrency with the API (pre-deploy check).
   */
  readonly workerConcurrency: number;
  /** Lambda concurrency kept for the API beside the worker and the claimers (pre-deploy check). */
  readonly apiConcurrencyHeadroom: number;
  /**
   * The account's Lambda concurrent-executions quota in the region: the concurrency alarm fires at
   * 80 % of it. `npm run deploy` reads it from the account; offline synthesis assumes AWS's default.
   */
  readonly lambdaConcurrencyQuota: number;
  /** The webhook queue's oldest message, in seconds, that raises its alarm. */
  readonly webhookQueueOldestSeconds: number;
  /** Daily AWS Backup of the table kept 35 days, copied to `keysReplicaRegion` (prod). */
  readonly backup: boolean;
  /** The CloudFront 5xx alarm, in a us-east-1 stack where CloudFront's metrics are (prod). */
  readonly edgeAlarms: boolean;
  /**
   * An existing table the stage uses instead of creating its own: a table restored from a backup,
   * in the restore drill and after a region's loss (docs/operations.md).
   */
  readonly existingTableName?: string;
  /**
   * The combined server-keys secret of a deployment made before the keys were split, which the
   * keys' custom resource then copies from; nothing else reads it, so fresh stages have none.
   */
  readonly legacyKeysSecretArn?: string;
}

/**
 * The sign-in peak the prod throttles are sized for (docs/security-and-sessions.md, "Sign-in
 * capacity"): 10,000 firms of 5 people, each signing in twice a day (sessions last 12 hours), 40 %
 * of a day's sign-ins in the morning hour, its busiest minute 3 times the hour's average.
 */
export const SIGN_IN_PEAK = {
  firms: 10_000,
  peoplePerFirm: 5,
  signInsPerPersonPerDay: 2,
  morningHourShare: 0.4,
  busiestMinuteFactor: 3,
} as const;

/** Sign-ins a second in the busiest minute of `SIGN_IN_PEAK` (each: one key, one second-factor check). */
export const signInPeakPerSecond = (peak: typeof SIGN_IN_PEAK = SIGN_IN_PEAK): number =>
  ((peak.firms * peak.peoplePerFirm * peak.signInsPerPersonPerDay * peak.morningHourShare) / 3600) *
  peak.busiestMinuteFactor;

export const DEFAULT_REGION = 'eu-west-3';
/** The keys' replica region in prod by default: another EU region, for the same data rules. */
export const DEFAULT_KEYS_REPLICA_REGION = 'eu-central-1';
/** AWS's default Lambda concurrent-executions quota of an established account. */
export const DEFAULT_LAMBDA_CONCURRENCY_QUOTA = 1000;

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;
const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The context flag of each legal detail. */
export const LEGAL_DETAIL_FLAGS: Readonly<Record<keyof LegalDetails, string>> = {
  name: 'companyName',
  legalForm: 'companyLegalForm',
  registration: 'companyRegistration',
  postalAddress: 'companyAddress',
  contactEmail: 'companyEmail',
  publicationDirector: 'publicationDirector',
};

const LEGAL_DETAIL_MEANINGS: Readonly<Record<keyof LegalDetails, string>> = {
  name: "the publisher's company name",
  legalForm: 'its legal form and capital (e.g. "SAS au capital de 10 000 €")',
  registration: 'its trade-register entry (e.g. "RCS Paris 912 345 678")',
  postalAddress: 'its postal address',
  contactEmail: 'the contact e-mail of the privacy page',
  publicationDirector: 'the publication director (first and last name)',
};

const PER_STAGE = {
  dev: {
    apiThrottle: { rateLimit: 10, burstLimit: 20 },
    signIn: { rateLimit: 5, burstLimit: 10 },
    portalLink: { rateLimit: 1, burstLimit: 3 },
    checkout: { rateLimit: 1, burstLimit: 3 },
    stripeWebhook: { rateLimit: 5, burstLimit: 10 },
    logRetention: logs.RetentionDays.ONE_WEEK,
    logLevel: 'DEBUG',
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    renotifyEvery: Duration.hours(24),
    wafRateLimit: 500,
    wafSignInRateLimit: 100,
    workerConcurrency: 20,
    apiConcurrencyHeadroom: 20,
    // Nobody is paged for dev: only a worker that stopped is worth a look.
    webhookQueueOldestSeconds: 2 * 60 * 60,
    backup: false,
    edgeAlarms: false,
  },
  prod: {
    apiThrottle: { rateLimit: 50, burstLimit: 100 },
    // Three times the morning peak of 10,000 firms (`SIGN_IN_PEAK`: 33 a second); guessing is
    // capped per address by the WAF and the application, not here.
    signIn: { rateLimit: 100, burstLimit: 200 },
    // Public and each accepted call may send an e-mail: a limit of its own, not sign-in's.
    portalLink: { rateLimit: 5, burstLimit: 10 },
    checkout: { rateLimit: 2, burstLimit: 5 },
    // Stripe sends bursts after an outage or a billing run; its retries absorb a 429.
    stripeWebhook: { rateLimit: 20, burstLimit: 40 },
    // Spec §9 and /privacy: technical logs are deleted within 30 days.
    logRetention: logs.RetentionDays.ONE_MONTH,
    logLevel: 'INFO',
    // A first create that rolls back deletes what it made, so the next attempt starts clean.
    removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    tableDeletionProtection: true,
    renotifyEvery: Duration.hours(6),
    // A page opens with a few calls; 2000 in 5 minutes is far above a busy office's use.
    wafRateLimit: 2000,
    // A sign-in makes at most 4 of these calls: 75 sign-ins of one office address in 5 minutes,
    // while one address alone can send 1 a second at most, a hundredth of the sign-in route's rate.
    wafSignInRateLimit: 300,
    // 2,200 runs/s at 200 ms answers need about 440 calls in flight (1,000,000 automations, 20 %
    // scheduled); 500 leaves the rest of the default 1,000 Lambda concurrency to the API.
    workerConcurrency: 500,
    // About 100 requests in flight: the stage's 50/s throttle with the slowest calls waiting 20 s.
    apiConcurrencyHeadroom: 100,
    // Retries wait seconds, not minutes: a run queued 5 minutes means the worker stalls.
    webhookQueueOldestSeconds: 5 * 60,
    backup: true,
    edgeAlarms: true,
  },
} as const;

/** What a stage needs of the account's Lambda concurrency, by part (the pre-deploy check's figures). */
export function concurrencyNeedOf(settings: StageSettings) {
  const parts = {
    worker: settings.workerConcurrency,
    // The minute tick starts one claimer per due-index shard at once.
    claimers: DUE_SHARDS,
    api: settings.apiConcurrencyHeadroom,
  };
  return { ...parts, total: parts.worker + parts.claimers + parts.api };
}

/** A CDK context value as the CLI gives it: strings, or `true` for a bare `-c flag`. */
export type ContextReader = (key: string) => unknown;

/**
 * The settings of the stage named by `-c stage=` (dev by default); docs/operations.md lists every
 * context value. @throws Error naming every missing or invalid value and how to give it
 */
export function stageSettings(context: ContextReader): StageSettings {
  const problems: string[] = [];
  const text = (key: string): string | undefined => {
    const value = context(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') {
      problems.push(`-c ${key} must be a text value (got ${JSON.stringify(value)})`);
      return undefined;
    }
    return value.trim();
  };

  const stageValue = text('stage') ?? 'dev';
  const known = (STAGES as readonly string[]).includes(stageValue);
  if (!known) problems.push(`-c stage must be one of ${STAGES.join(', ')} (got "${stageValue}")`);
  const stage: StageName = known ? (stageValue as StageName) : 'dev';
  const perStage = PER_STAGE[stage];

  const region = text('region') ?? DEFAULT_REGION;
  if (!REGION.test(region))
    problems.push(`-c region must be an AWS region such as eu-west-3 (got "${region}")`);

  const mailFrom = text('mailFrom');
  if (mailFrom === undefined) {
    problems.push(
      '-c mailFrom=<address> is required: the sender of the licence and cancellation e-mails, an ' +
        'SES identity verified in the region (docs/operations.md, "Before the first deployment")',
    );
  } else if (!EMAIL.test(mailFrom)) {
    problems.push(`-c mailFrom must be a bare e-mail address, without a display name (got "${mailFrom}")`);
  }

  const alarmEmail = text('alarmEmail');
  if (alarmEmail === undefined && stage === 'prod') {
    problems.push(
      '-c alarmEmail=<address> is required for prod: the alarms must reach someone (AWS sends the ' +
        'address a confirmation link first; docs/operations.md, "Alarms")',
    );
  } else if (alarmEmail !== undefined && !EMAIL.test(alarmEmail)) {
    problems.push(`-c alarmEmail must be an e-mail address (got "${alarmEmail}")`);
  }

  const legalDetails = { ...EXAMPLE_LEGAL_DETAILS };
  for (const [field, flag] of Object.entries(LEGAL_DETAIL_FLAGS) as [keyof LegalDetails, string][]) {
    const value = text(flag);
    if (value === undefined) {
      if (stage === 'prod')
        problems.push(
          `-c ${flag}=<…> is required for prod: ${LEGAL_DETAIL_MEANINGS[field]}, shown on /privacy and in the e-mails (docs/billing.md, "Legal details")`,
        );
    } else if (
      stage === 'prod' &&
      (value.startsWith(EXAMPLE_MARK.trim()) || value === EXAMPLE_LEGAL_DETAILS[field])
    ) {
      problems.push(`-c ${flag} must be the real value, not an example (got "${value}")`);
    } else if (field === 'contactEmail' && !EMAIL.test(value)) {
      problems.push(`-c ${flag} must be an e-mail address (got "${value}")`);
    } else {
      legalDetails[field] = value;
    }
  }

  const adminAlertEmail = text('alertEmail') ?? alarmEmail;
  if (adminAlertEmail !== undefined && !EMAIL.test(adminAlertEmail)) {
    problems.push(`-c alertEmail must be an e-mail address (got "${adminAlertEmail}")`);
  }

  const replicaValue = text('keysReplicaRegion') ?? (stage === 'prod' ? DEFAULT_KEYS_REPLICA_REGION : 'none');
  const keysReplicaRegion = replicaValue === 'none' ? undefined : replicaValue;
  if (keysReplicaRegion !== undefined && !REGION.test(keysReplicaRegion)) {
    problems.push(`-c keysReplicaRegion must be an AWS region or "none" (got "${keysReplicaRegion}")`);
  } else if (keysReplicaRegion === region) {
    problems.push(`-c keysReplicaRegion must differ from the stack's region ${region}`);
  }

  const domainName = text('domainName')?.toLowerCase();
  if (domainName !== undefined && !DOMAIN.test(domainName)) {
    problems.push(`-c domainName must be a host name such as app.cabinet.example (got "${domainName}")`);
  }

  const wafValue = context('waf');
  const waf = wafValue === true || wafValue === 'true';
  if (wafValue !== undefined && wafValue !== true && wafValue !== 'true' && wafValue !== 'false') {
    problems.push(`-c waf must be true or false (got ${JSON.stringify(wafValue)})`);
  }

  const quotaValue = text('lambdaConcurrencyQuota');
  const lambdaConcurrencyQuota =
    quotaValue === undefined ? DEFAULT_LAMBDA_CONCURRENCY_QUOTA : Number(quotaValue);
  if (!Number.isInteger(lambdaConcurrencyQuota) || lambdaConcurrencyQuota < 1) {
    problems.push(`-c lambdaConcurrencyQuota must be a whole number of executions (got "${quotaValue}")`);
  }

  const existingTableName = text('tableName');
  if (existingTableName !== undefined && !TABLE_NAME.test(existingTableName)) {
    problems.push(`-c tableName must be a DynamoDB table name (got "${existingTableName}")`);
  }

  const legacyKeysSecretArn = text('legacyKeysSecretArn');
  if (legacyKeysSecretArn !== undefined && !SECRET_ARN.test(legacyKeysSecretArn)) {
    problems.push(
      `-c legacyKeysSecretArn must be a Secrets Manager secret ARN (got "${legacyKeysSecretArn}")`,
    );
  }

  if (problems.length > 0) {
    throw new Error(`Deployment settings (stage ${stage}):\n  - ${problems.join('\n  - ')}`);
  }
  return {
    stage,
    stackName: `AssistantJuridique-${stage}`,
    region,
    mailFrom: mailFrom as string,
    legalDetails,
    ...(alarmEmail ? { alarmEmail } : {}),
    ...(adminAlertEmail ? { adminAlertEmail } : {}),
    apiThrottle: perStage.apiThrottle,
    routeThrottles: {
      // Signing in: the key, then the second factor (its options and its check), each sized for
      // the morning peak rather than the everyday default of the other routes.
      [routeKey(ROUTES.verifyLicense)]: perStage.signIn,
      [routeKey(ROUTES.passkeyAuthenticationOptions)]: perStage.signIn,
      [routeKey(ROUTES.verifySecondFactor)]: perStage.signIn,
      [routeKey(ROUTES.requestPortalLink)]: perStage.portalLink,
      [routeKey(ROUTES.createCheckout)]: perStage.checkout,
      [routeKey(ROUTES.stripeWebhook)]: perStage.stripeWebhook,
    },
    logRetention: perStage.logRetention,
    logLevel: perStage.logLevel,
    removalPolicy: perStage.removalPolicy,
    tableDeletionProtection: perStage.tableDeletionProtection,
    renotifyEvery: perStage.renotifyEvery,
    ...(keysReplicaRegion ? { keysReplicaRegion } : {}),
    ...(domainName ? { customDomain: { domainName } } : {}),
    waf,
    wafRateLimit: perStage.wafRateLimit,
    wafSignInRateLimit: perStage.wafSignInRateLimit,
    ...(domainName ? { apiOriginDomainName: `api.${domainName}` } : {}),
    workerConcurrency: perStage.workerConcurrency,
    apiConcurrencyHeadroom: perStage.apiConcurrencyHeadroom,
    lambdaConcurrencyQuota,
    webhookQueueOldestSeconds: perStage.webhookQueueOldestSeconds,
    backup: perStage.backup,
    edgeAlarms: perStage.edgeAlarms,
    ...(existingTableName ? { existingTableName } : {}),
    ...(legacyKeysSecretArn ? { legacyKeysSecretArn } : {}),
  };
}

const STACK_SETTINGS = new WeakMap<Stack, StageSettings>();

/** Makes a stack's stage settings the defaults of the constructs built in it (`stageSettingsOf`). */
export function applyStageSettings(stack: Stack, settings: StageSettings): void {
  STACK_SETTINGS.set(stack, settings);
}

/**
 * The stage settings of the stack a construct is in, for the defaults every function shares (log
 * retention and level, removal of its log group); undefined for a construct built in a bare test
 * stack, which then gets the construct's own defaults.
 */
export function stageSettingsOf(scope: IConstruct): StageSettings | undefined {
  return STACK_SETTINGS.get(Stack.of(scope));
}
