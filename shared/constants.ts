/**
 * Business constants of the product (spec §9). Every number the product relies on lives here so
 * that web, functions and infrastructure agree on it.
 */

/** Prices in euro cents, VAT not applicable (article 293 B of the French tax code). */
export const PRICING = {
  initialPaymentCents: 95_000,
  monthlySubscriptionCents: 15_000,
  /**
   * Paid at checkout: the licence and the first month, as Stripe's first invoice of the
   * subscription holds both; every price shown says so (docs/billing.md).
   */
  firstPaymentCents: 95_000 + 15_000,
  currency: 'eur',
  vatNotice: 'TVA non applicable, article 293 B du CGI',
} as const;

/** Licence keys: a login needs at least 5 characters; generated keys are `NOTARY-` + 8 characters. */
export const LICENSE_KEY = {
  minLength: 5,
  prefix: 'NOTARY-',
  randomLength: 8,
  alphabet: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  /** The longest key we accept at all: anything longer is not a key, whatever it is. */
  maxLength: 128,
} as const;

/** Licence types as stored on the licence record; the role of a session comes from it. */
export const LICENSE_TYPES = ['admin', 'lawyer', 'notary'] as const;

/** Reminder frequency in days: default 7, chosen from 1 to 30 on the lawyer form. */
export const REMINDER_FREQUENCY = { default: 7, min: 1, max: 30 } as const;

/** Workflow types and their French labels. */
export const WORKFLOW_TYPES = ['client_management', 'document_classification', 'client_reminder'] as const;
export type WorkflowType = (typeof WORKFLOW_TYPES)[number];

export const WORKFLOW_TYPE_LABELS: Record<WorkflowType, string> = {
  client_management: 'Gestion Client',
  document_classification: 'Classement des Pièces',
  client_reminder: 'Relance Dossier Client',
};

/** Scheduling interval in minutes per workflow type; 2 for an unknown type and on creation by default. */
export const SCHEDULING_INTERVAL_MINUTES: Record<WorkflowType, number> = {
  client_management: 2,
  client_reminder: 1,
  document_classification: 1,
};
export const DEFAULT_SCHEDULING_INTERVAL_MINUTES = 2;
/** Planning cards show 60 minutes when a workflow has no interval. */
export const PLANNING_CARD_DEFAULT_INTERVAL_MINUTES = 60;

/** Global scheduling settings (hard-coded, spec §3). */
export const GLOBAL_SCHEDULING = {
  enabled: true,
  defaultInterval: 1,
  maxConcurrentWorkflows: 5,
} as const;

/** Workflow tab categories on the notary workflows page. */
export const WORKFLOW_CATEGORIES = ['all', ...WORKFLOW_TYPES] as const;
export type WorkflowCategory = (typeof WORKFLOW_CATEGORIES)[number];

/** Manual run button lock and copy feedback, in milliseconds. */
export const MANUAL_RUN_LOCK_MS = 30_000;
export const COPY_FEEDBACK_MS = 2_000;

/** Test promo code: 100 % off, at most 10 redemptions. */
export const TEST_PROMO = { percentOff: 100, maxRedemptions: 10 } as const;

/** Form bounds (spec §5 and §9). */
export const FORM_BOUNDS = {
  workflowNameMin: 3,
  workflowDescriptionMin: 10,
  personNameMin: 2,
  phoneMin: 10,
  officeNameMin: 2,
  /** A workflow's tags (spec §3 optional display fields): at most this many, each this long at most. */
  workflowTagsMax: 10,
  workflowTagLengthMax: 30,
  /** A workflow's category, as long at most. */
  workflowCategoryLengthMax: 40,
} as const;

/** Retention (spec §9), in days. */
export const RETENTION_DAYS = {
  technicalData: 30,
  afterCancellation: 30,
  billingYears: 5,
} as const;

/** Layout (spec §2 and §9). */
export const LAYOUT = {
  mobileBreakpointPx: 768,
  sidebarCookieName: 'sidebar_state',
  sidebarCookieMaxAgeDays: 7,
  sidebarWidthRem: 16,
  sidebarMobileWidthRem: 18,
  sidebarCollapsedWidthRem: 3,
} as const;

/** About the application (notary settings page). */
export const APP_INFO = {
  version: '1.0.0',
  lastUpdate: '21 mai 2025',
  privacyPolicyDate: '21/05/2025',
} as const;

/** Google OAuth redirect URI stored when none is given (spec §3). */
export const DEFAULT_GOOGLE_REDIRECT_URI = 'https://developers.google.com/oauthplayground';

/** Sessions: an absolute lifetime, never extended by activity. */
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;

/** Live sessions one licence may hold; opening one more ends the oldest. */
export const MAX_SESSIONS_PER_LICENSE = 20;

/**
 * Every list call (workflows, lawyers, folders, executions, audit trail) answers one page at a
 * time: `limit` items at most (`default` when the caller names none, never more than `max`) and
 * an opaque `nextCursor` for the next page. A page stays far below Lambda's 6 MB reply limit
 * whatever the table holds (100 workflows are about 47 KB).
 */
export const LIST_PAGE = { default: 50, max: 100 } as const;

/**
 * The directory's searches (automations, lawyers and notaries, folders): a query of at most this
 * many characters (a longer one is a 400 naming the parameter, never a 5xx).
 */
export const SEARCH_QUERY_MAX_LENGTH = 200;

/**
 * The automations in failure a health dashboard or the admin's daily digest lists at most, the
 * longest failure streaks first: in an outage every automation of the platform may be failing.
 */
export const DASHBOARD_FAILING_LISTED = 50;

/**
 * The automations whose health one call looks up at most: the cards a page shows (12 at a time)
 * ask for their own health, never the whole list's.
 */
export const HEALTH_LOOKUP_MAX = 50;

/** The largest JSON body any call accepts (bytes). */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Sign-in throttling per client: after `slowAfter` wrong keys in the window every further attempt is
 * slowed down, after `lockAfter` the client is refused until the window ends.
 */
export const SIGN_IN_THROTTLE = {
  windowSeconds: 15 * 60,
  slowAfter: 3,
  lockAfter: 10,
  delayStepMs: 500,
  maxDelayMs: 3_000,
} as const;

/**
 * The second factor (passkey, else authenticator-app code): required for admin licences, chosen by
 * a firm's licence. A session opened by a licence key alone is "second factor pending" for a few
 * minutes; sensitive admin actions ask for the factor again once the last check is older than
 * `stepUpMaxAgeSeconds`. Wrong codes are counted per licence: after `maxFailures` within the
 * window the licence's codes are refused until the window ends.
 */
export const SECOND_FACTOR = {
  pendingLifetimeSeconds: 10 * 60,
  stepUpMaxAgeSeconds: 15 * 60,
  recoveryCodeCount: 10,
  /** Recovery codes: `XXXXX-XXXXX`, from an alphabet without look-alike characters. */
  recoveryCodeAlphabet: 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789',
  recoveryCodeHalfLength: 5,
  codeThrottle: { maxFailures: 5, windowSeconds: 15 * 60 },
  /**
   * Pending (key-only) sessions a licence may hold, apart from its verified ones: from browsers not
   * remembered, and from each remembered browser; opening one more ends the oldest of its pool.
   */
  pendingSessions: { perLicense: 10, perRememberedBrowser: 3 },
  /**
   * A browser that passed the factor is remembered by a signed, HttpOnly cookie: its codes are
   * counted apart, so that wrong codes sent from elsewhere never lock it out.
   */
  rememberedBrowser: {
    cookieName: 'appareil_reconnu',
    lifetimeSeconds: 30 * 24 * 60 * 60,
    maxPerLicense: 20,
  },
  totp: { digits: 6, periodSeconds: 30, algorithm: 'SHA1', window: 1 },
  /** How long a WebAuthn challenge may be answered. */
  challengeLifetimeSeconds: 5 * 60,
  maxPasskeys: 10,
  /** The name authenticator apps and passkey managers show. */
  issuer: 'Assistant IA juridique',
  /** The error code of a reply asking for the second factor again (the web client's step-up dialog). */
  stepUpErrorCode: 'SECOND_FACTOR_REQUIRED',
} as const;

/** Where the product's data lives by default (the CDK stack's region decides, see /config.json). */
export const DEFAULT_HOSTING_REGION = 'eu-west-3';

/**
 * The id of the `<script type="application/json">` of index.html that carries the SPA's runtime
 * settings, filled by the local runtime when it serves the page and by the deployment: the SPA
 * reads them without a request of its own before its first render.
 */
export const RUNTIME_CONFIG_ELEMENT_ID = 'runtime-config';

/**
 * The routes whose first screen is pre-rendered at build time into a page of their own
 * (`/login` → `login.html`, web/build/prerender.ts), which the servers answer them with instead of
 * index.html: /login, where every new visitor lands, and the public pages a prospect reads first
 * show their text before the JavaScript has run.
 */
export const PRERENDERED_ROUTES = ['/login', '/', '/discover', '/privacy', '/payment-success'] as const;

/** The page a pre-rendered route is answered with: `/login` → `login.html`, `/` → `landing.html`. */
export const prerenderedPageOf = (route: (typeof PRERENDERED_ROUTES)[number]) =>
  route === '/' ? 'landing.html' : `${route.slice(1)}.html`;
