import { randomUUID } from 'node:crypto';

import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WorkflowRepository } from '../../../functions/data/directory/workflows';
import { LicenseRepository } from '../../../functions/data/identity/licenses';
import { ExecutionRepository } from '../../../functions/data/scheduling/executions';
import { issueLicense } from '../../../functions/domain/identity/licenses';
import { reportLinkOf } from '../../../functions/domain/scheduling/report-links';
import { createLicenseKeyVault } from '../../../functions/security/license-key-vault';
import { type LocalQueues, startLocalQueues } from '../../../lib/local/queue/local-queues';
import { ROUTES } from '../../../shared/routes';
import { BILLING_ROUTES } from '../../../shared/routes/billing';
import { DIRECTORY_ROUTES } from '../../../shared/routes/directory';
import { HEALTH_ROUTES } from '../../../shared/routes/health';
import { SCHEDULING_ROUTES } from '../../../shared/routes/scheduling';
import { SECOND_FACTOR_ROUTES } from '../../../shared/routes/second-factor';
import { SESSION_ROUTES } from '../../../shared/routes/session';
import type { Folder } from '../../../shared/schemas/folder';
import type { TotpEnrolment } from '../../../shared/schemas/second-factor';
import type { Workflow } from '../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, MemoryMailer, type TestApp } from '../../support/app';
import {
  type CallOptions,
  callRoute,
  createSignedInLawyer,
  issueAndSignIn,
  lawyerFields,
  signIn,
  workflowFields,
} from '../../support/directory';
import { withExports } from '../../support/exports';
import { PUBLIC_URL } from '../../support/payments';
import { workflowRecord } from '../../support/records';
import { startTestReceiver, type TestReceiver } from '../../support/scheduling';
import { type StandInHarness, startHarness } from '../../support/stripe';

/** Every route of the route table. */
const MATRIX_ROUTES = {
  ...SESSION_ROUTES,
  ...DIRECTORY_ROUTES,
  ...SCHEDULING_ROUTES,
  ...HEALTH_ROUTES,
  ...BILLING_ROUTES,
  ...SECOND_FACTOR_ROUTES,
};
type MatrixRoute = keyof typeof MATRIX_ROUTES;

/** The callers of the matrix, in the order of the columns below. */
const CALLERS = ['anonymous', 'admin', 'lawyer', 'notary', 'inactive', 'other', 'pending'] as const;
type Caller = (typeof CALLERS)[number];

/**
 * The permission matrix: the status every caller gets on every route (spec §6).
 * - anonymous: no session token;
 * - admin: an admin licence;
 * - lawyer / notary: a lawyer or notary licence, acting on his own workflow, profile and licence;
 * - inactive: a lawyer signed in before his licence was deactivated;
 * - other: a lawyer acting on another lawyer's workflow, profile id, licence key and e-mail (on
 *   /api/me and the workflow list, which name nobody, he gets his own);
 * - pending: a lawyer whose licence has a second factor, signed in with his key but not yet with
 *   his factor: only the second-factor calls accept his session.
 * Changing any cell must be a deliberate change of this table.
 */
const EXPECTED = {
  // [anonymous, admin, lawyer, notary, inactive, other, pending]
  // Signing in needs no session (a right key, whoever asks); signing out needs one, and ends it.
  verifyLicense: [200, 200, 200, 200, 200, 200, 200],
  signOut: [401, 200, 200, 200, 401, 200, 401],
  listLawyers: [401, 200, 403, 403, 401, 403, 401],
  getLawyer: [401, 200, 403, 403, 401, 403, 401],
  saveLawyer: [401, 201, 403, 403, 401, 403, 401],
  deleteLawyer: [401, 200, 403, 403, 401, 403, 401],
  revealLawyerSecrets: [401, 200, 403, 403, 401, 403, 401],
  getLicenseRole: [401, 200, 403, 403, 401, 403, 401],
  setLicenseRole: [401, 200, 403, 403, 401, 403, 401],
  revealLawyerLicenseKey: [401, 200, 403, 403, 401, 403, 401],
  resendLicenseEmail: [401, 200, 403, 403, 401, 403, 401],
  lookupLawyer: [401, 200, 200, 200, 401, 403, 401],
  getProfile: [401, 403, 200, 200, 401, 200, 401],
  saveProfile: [401, 403, 200, 200, 401, 200, 401],
  listWorkflows: [401, 200, 200, 200, 401, 200, 401],
  directoryCounts: [401, 200, 200, 200, 401, 200, 401],
  getWorkflow: [401, 200, 200, 200, 401, 404, 401],
  createWorkflow: [401, 201, 403, 403, 401, 403, 401],
  updateWorkflow: [401, 200, 403, 403, 401, 403, 401],
  deleteWorkflow: [401, 200, 403, 403, 401, 403, 401],
  toggleWorkflowActive: [401, 200, 403, 403, 401, 403, 401],
  toggleWorkflowScheduling: [401, 200, 200, 200, 401, 404, 401],
  listFolders: [401, 200, 403, 403, 401, 403, 401],
  createFolder: [401, 201, 403, 403, 401, 403, 401],
  updateFolder: [401, 200, 403, 403, 401, 403, 401],
  deleteFolder: [401, 200, 403, 403, 401, 403, 401],
  findLicenseByEmail: [401, 200, 200, 200, 401, 403, 401],
  findLicenseByKey: [401, 200, 200, 200, 401, 403, 401],
  listAudit: [401, 200, 403, 403, 401, 403, 401],
  workflowScheduler: [401, 200, 403, 403, 401, 403, 401],
  schedulerStatus: [401, 200, 403, 403, 401, 403, 401],
  redriveDeadLetters: [401, 200, 403, 403, 401, 403, 401],
  executeWebhook: [401, 200, 200, 200, 401, 404, 401],
  workflowExecutions: [401, 200, 200, 200, 401, 404, 401],
  replayExecution: [401, 200, 200, 200, 401, 404, 401],
  // A workflow's completion report: no session counts, only its run's signed link, which each
  // request of this row carries (a forged or spent one: completion-reports.test.ts).
  submitCompletionReport: [200, 200, 200, 200, 200, 200, 200],
  // Health: a member reads his own (the dashboard names nobody: he gets his own; a look-up of
  // another's workflow answers without it, as for a deleted one).
  workflowsHealth: [401, 200, 200, 200, 401, 200, 401],
  workflowHealth: [401, 200, 200, 200, 401, 404, 401],
  healthDashboard: [401, 200, 200, 200, 401, 200, 401],
  // Past the permission check, a workflow that is not paused does not resume.
  resumeWorkflow: [401, 409, 409, 409, 401, 404, 401],
  testWorkflowConnection: [401, 200, 200, 200, 401, 404, 401],
  healthSettings: [401, 200, 403, 403, 401, 403, 401],
  updateHealthSettings: [401, 200, 403, 403, 401, 403, 401],
  // Buying a licence needs no session, whoever asks.
  createCheckout: [200, 200, 200, 200, 200, 200, 200],
  checkSubscription: [401, 403, 200, 200, 401, 403, 401],
  // The matrix's licences were issued by an admin, not bought: past the permission check, the
  // portal and the cancellation find no subscription to act on (a bought one: billing-routes.test.ts).
  customerPortal: [401, 403, 404, 404, 401, 403, 401],
  // Public, and the same neutral reply whoever asks.
  requestPortalLink: [200, 200, 200, 200, 200, 200, 200],
  cancelSubscription: [401, 403, 404, 404, 401, 403, 401],
  reactivateSubscription: [401, 403, 404, 404, 401, 403, 401],
  updateLicenseEmail: [401, 403, 200, 200, 401, 403, 401],
  createPromoCode: [401, 200, 403, 403, 401, 403, 401],
  // A member exports his own firm whatever lawyer he names; an admin the lawyer he names.
  startDataExport: [401, 200, 200, 200, 401, 200, 401],
  currentDataExport: [401, 200, 200, 200, 401, 200, 401],
  // Stripe's call: no session counts, only its signature, which none of these requests carries.
  stripeWebhook: [400, 400, 400, 400, 400, 400, 400],
  // The second factor's own calls: the only ones a pending session may make. A pending licence has
  // a factor already, so it may not enrol another; the others have none (this app does not require
  // one of admins), so there is nothing to check or to authenticate with.
  secondFactorStatus: [401, 200, 200, 200, 401, 200, 200],
  startTotpEnrolment: [401, 200, 200, 200, 401, 200, 403],
  confirmTotpEnrolment: [401, 400, 400, 400, 401, 400, 403],
  passkeyRegistrationOptions: [401, 200, 200, 200, 401, 200, 403],
  registerPasskey: [401, 400, 400, 400, 401, 400, 403],
  passkeyAuthenticationOptions: [401, 400, 400, 400, 401, 400, 400],
  verifySecondFactor: [401, 400, 400, 400, 401, 400, 400],
  resetSecondFactor: [401, 200, 403, 403, 401, 403, 401],
  // From a full session only; past the permission check the matrix's licences (the pending one
  // aside) have no factor to remove, and no remembered browser of that id.
  removeTotp: [401, 400, 400, 400, 401, 400, 401],
  removePasskey: [401, 404, 404, 404, 401, 404, 401],
  listRememberedBrowsers: [401, 200, 200, 200, 401, 200, 401],
  forgetRememberedBrowser: [401, 404, 404, 404, 401, 404, 401],
} as const satisfies Record<MatrixRoute, readonly [number, number, number, number, number, number, number]>;

/** Whose resources a request names: the caller's own (`self`) and the one it acts on (`target`). */
interface Identity {
  readonly lawyerId: string;
  readonly workflowId: string;
  readonly licenseKey: string;
  readonly email: string;
}

interface CellContext {
  readonly self: Identity;
  readonly target: Identity;
  readonly caller: Caller;
  /** Fresh resources for the routes that destroy what they name. */
  readonly fresh: {
    /** Another session of the caller, as he would hold it (none for anonymous). */
    session(caller: Caller): Promise<string | undefined>;
    lawyer(): Promise<string>;
    workflow(ownerEmail: string): Promise<string>;
    folder(): Promise<string>;
    /** A workflow whose webhook answers 200, never run yet (a run locks it for 30 seconds). */
    runnableWorkflow(ownerEmail: string): Promise<string>;
    /** The key of a new lawyer licence. */
    licenseKey(): Promise<string>;
    /** A history row of a run of a new runnable workflow of `ownerEmail`, never replayed. */
    recordedRun(ownerEmail: string): Promise<{ workflowId: string; executionId: string; startedAt: string }>;
    /** The token of the report link of a new run of a new workflow of `ownerEmail`. */
    reportToken(ownerEmail: string): Promise<string>;
  };
}

/** A passkey answer no authenticator signed. */
const UNSIGNED_CREDENTIAL = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'oA' },
  clientExtensionResults: {},
};

/** The request of each route, built for one cell. */
const REQUESTS: Record<MatrixRoute, (cell: CellContext) => CallOptions | Promise<CallOptions>> = {
  verifyLicense: ({ target }) => ({ body: { licenseKey: target.licenseKey } }),
  // A session of its own to end, so that the caller's own stays for the other cells.
  signOut: async ({ fresh, caller }) => ({ token: await fresh.session(caller) }),
  listLawyers: () => ({}),
  getLawyer: ({ target }) => ({ params: { id: target.lawyerId } }),
  saveLawyer: () => ({ body: lawyerFields() }),
  deleteLawyer: async ({ fresh }) => ({ params: { id: await fresh.lawyer() } }),
  revealLawyerSecrets: ({ target }) => ({ params: { id: target.lawyerId } }),
  getLicenseRole: ({ target }) => ({ params: { id: target.lawyerId } }),
  setLicenseRole: ({ target }) => ({ params: { id: target.lawyerId }, body: { licenseType: 'lawyer' } }),
  revealLawyerLicenseKey: ({ target }) => ({ params: { id: target.lawyerId } }),
  resendLicenseEmail: ({ target }) => ({ params: { id: target.lawyerId } }),
  lookupLawyer: ({ target }) => ({ body: { licenseKey: target.licenseKey } }),
  getProfile: () => ({}),
  saveProfile: ({ self }) => ({ body: lawyerFields({ email: self.email }) }),
  listWorkflows: () => ({}),
  directoryCounts: () => ({}),
  getWorkflow: ({ target }) => ({ params: { id: target.workflowId } }),
  createWorkflow: ({ target }) => ({ body: workflowFields(target.email) }),
  updateWorkflow: ({ target }) => ({
    params: { id: target.workflowId },
    body: { name: 'Relance des pièces manquantes' },
  }),
  deleteWorkflow: async ({ target, fresh }) => ({ params: { id: await fresh.workflow(target.email) } }),
  toggleWorkflowActive: ({ target }) => ({ params: { id: target.workflowId } }),
  toggleWorkflowScheduling: ({ target }) => ({ params: { id: target.workflowId } }),
  listFolders: () => ({}),
  createFolder: () => ({ body: { name: 'Succession Dupont' } }),
  updateFolder: async ({ fresh }) => ({
    params: { id: await fresh.folder() },
    body: { name: 'Divorce Durand' },
  }),
  deleteFolder: async ({ fresh }) => ({ params: { id: await fresh.folder() } }),
  findLicenseByEmail: ({ target }) => ({ query: { userEmail: target.email } }),
  findLicenseByKey: ({ target }) => ({ body: { licenseKey: target.licenseKey } }),
  listAudit: () => ({}),
  workflowScheduler: () => ({ body: { trigger: 'manual' } }),
  schedulerStatus: () => ({}),
  redriveDeadLetters: () => ({}),
  executeWebhook: async ({ target, fresh }) => ({
    body: { workflowId: await fresh.runnableWorkflow(target.email) },
  }),
  workflowExecutions: ({ target }) => ({ params: { id: target.workflowId } }),
  replayExecution: async ({ target, fresh }) => {
    const run = await fresh.recordedRun(target.email);
    return {
      params: { id: run.workflowId },
      body: { executionId: run.executionId, startedAt: run.startedAt },
    };
  },
  submitCompletionReport: async ({ target, fresh }) => ({
    params: { token: await fresh.reportToken(target.email) },
    body: { status: 'success', summary: '3 e-mails classés' },
  }),
  workflowsHealth: ({ target }) => ({ query: { ids: target.workflowId } }),
  workflowHealth: ({ target }) => ({ params: { id: target.workflowId } }),
  healthDashboard: () => ({}),
  resumeWorkflow: ({ target }) => ({ params: { id: target.workflowId } }),
  testWorkflowConnection: async ({ target, fresh }) => ({
    params: { id: await fresh.runnableWorkflow(target.email) },
  }),
  healthSettings: () => ({}),
  updateHealthSettings: () => ({ body: { pauseAfterFailures: 5, alertEmail: null, dailyDigest: false } }),
  createCheckout: () => ({ body: { email: lawyerFields().email, paymentType: 'initial' } }),
  checkSubscription: ({ target }) => ({ body: { licenseKey: target.licenseKey } }),
  customerPortal: ({ target }) => ({ body: { licenseKey: target.licenseKey } }),
  requestPortalLink: () => ({ body: { email: lawyerFields().email } }),
  cancelSubscription: ({ target }) => ({ body: { licenseKey: target.licenseKey } }),
  reactivateSubscription: ({ target }) => ({ body: { licenseKey: target.licenseKey } }),
  updateLicenseEmail: ({ target }) => ({ body: { licenseKey: target.licenseKey } }),
  createPromoCode: () => ({}),
  startDataExport: async ({ fresh }) => ({ body: { lawyerId: await fresh.lawyer() } }),
  currentDataExport: ({ target }) => ({ query: { lawyerId: target.lawyerId } }),
  stripeWebhook: () => ({ body: { id: 'evt_unsigned', type: 'checkout.session.completed' } }),
  secondFactorStatus: () => ({}),
  startTotpEnrolment: () => ({}),
  // Nobody of the matrix has a TOTP secret this code could belong to (one chance in ~300,000).
  confirmTotpEnrolment: () => ({ body: { code: '000000' } }),
  passkeyRegistrationOptions: () => ({}),
  registerPasskey: () => ({ body: { credential: UNSIGNED_CREDENTIAL } }),
  passkeyAuthenticationOptions: () => ({}),
  verifySecondFactor: () => ({ body: { method: 'totp', code: '000000' } }),
  // A licence of its own: a reset ends the sessions of the licence it names.
  resetSecondFactor: async ({ fresh }) => ({ body: { licenseKey: await fresh.licenseKey() } }),
  removeTotp: () => ({}),
  removePasskey: () => ({ params: { id: 'AAAA' } }),
  listRememberedBrowsers: () => ({}),
  forgetRememberedBrowser: () => ({ params: { id: '5f0c6d3e-8d5b-4b7e-9a51-0d7f2b9c1a11' } }),
};

describe('permission matrix of the routes', () => {
  let app: TestApp;
  let queues: LocalQueues;
  let receiver: TestReceiver;
  let stripe: StandInHarness;
  const tokens = {} as Record<Caller, string | undefined>;
  const identities = {} as Record<'lawyer' | 'notary' | 'inactive' | 'other' | 'pending', Identity>;
  let fresh: CellContext['fresh'];
  let exports: ReturnType<typeof withExports<TestApp>>;

  beforeAll(async () => {
    queues = await startLocalQueues();
    stripe = await startHarness();
    exports = withExports(await createTestApp(inject('dynamoEndpoint')));
    app = {
      ...exports.app,
      webhookQueue: queues.dispatchQueue,
      billing: {
        payments: async () => stripe.payments,
        mailer: new MemoryMailer(),
        publicUrl: () => PUBLIC_URL,
      },
    };
    receiver = await startTestReceiver(app);
    const admin = await issueAndSignIn(app, 'admin');
    tokens.admin = admin.token;
    const createWorkflow = async (ownerEmail: string) => {
      const { body } = await callRoute<Workflow>(app, 'createWorkflow', {
        token: admin.token,
        body: workflowFields(ownerEmail),
      });
      return body.id;
    };
    const identityOf = async (lawyer: Awaited<ReturnType<typeof createSignedInLawyer>>) => ({
      lawyerId: lawyer.lawyer.id,
      workflowId: await createWorkflow(lawyer.email),
      licenseKey: lawyer.licenseKey,
      email: lawyer.email,
    });

    const lawyer = await createSignedInLawyer(app, admin.token);
    identities.lawyer = await identityOf(lawyer);
    tokens.lawyer = lawyer.token;

    // A notary: a notary licence, then his profile saved by an admin with that key.
    const notaryEmail = lawyerFields().email;
    const notaryLicense = await issueLicense(
      new LicenseRepository(app.table),
      createLicenseKeyVault(app.keys),
      { licenseType: 'notary', userEmail: notaryEmail },
      app.clock.now().toISOString(),
    );
    const notary = await createSignedInLawyer(app, admin.token, {
      email: notaryEmail,
      licenseKey: notaryLicense.licenseKey,
    });
    expect((await signIn(app, notary.licenseKey)).licenseType).toBe('notary');
    identities.notary = await identityOf(notary);
    tokens.notary = notary.token;

    const other = await createSignedInLawyer(app, admin.token);
    identities.other = await identityOf(other);
    tokens.other = other.token;

    const inactive = await createSignedInLawyer(app, admin.token);
    identities.inactive = await identityOf(inactive);
    tokens.inactive = inactive.token;
    await new LicenseRepository(app.table).updateState(
      inactive.keyHash,
      { isActive: false, subscriptionStatus: 'canceled', nextPaymentDue: null, accessEndsAt: null },
      app.clock.now().toISOString(),
    );

    // A lawyer who enrolled a second factor, signed in again with his key only.
    const pending = await createSignedInLawyer(app, admin.token);
    identities.pending = await identityOf(pending);
    const { body: enrolment } = await callRoute<TotpEnrolment>(app, 'startTotpEnrolment', {
      token: pending.token,
    });
    const code = new TOTP({ secret: Secret.fromBase32(enrolment.secret) }).generate({
      timestamp: app.clock.now().getTime(),
    });
    const enrolled = await callRoute(app, 'confirmTotpEnrolment', { token: pending.token, body: { code } });
    expect(enrolled.statusCode).toBe(200);
    const pendingReply = await signIn(app, pending.licenseKey);
    expect(pendingReply.secondFactor?.step).toBe('verify');
    tokens.pending = pendingReply.token;

    fresh = {
      session: async (caller) => {
        if (caller === 'anonymous') return undefined;
        // An inactive licence opens no session: its old one is all it has.
        if (caller === 'inactive') return tokens.inactive;
        const licenseKey = caller === 'admin' ? admin.licenseKey : identities[caller].licenseKey;
        return (await signIn(app, licenseKey)).token;
      },
      licenseKey: async () =>
        (
          await issueLicense(
            new LicenseRepository(app.table),
            createLicenseKeyVault(app.keys),
            { licenseType: 'lawyer', userEmail: lawyerFields().email },
            app.clock.now().toISOString(),
          )
        ).licenseKey,
      lawyer: async () => {
        const { body } = await callRoute<{ lawyer: { id: string } }>(app, 'saveLawyer', {
          token: admin.token,
          body: lawyerFields(),
        });
        return body.lawyer.id;
      },
      workflow: createWorkflow,
      runnableWorkflow: async (ownerEmail) => {
        const record = workflowRecord({ lawyerEmail: ownerEmail, webhookUrl: `${receiver.baseUrl}/run` });
        await new WorkflowRepository(app.table).create(record);
        return record.id;
      },
      recordedRun: async (ownerEmail) => {
        const record = workflowRecord({ lawyerEmail: ownerEmail, webhookUrl: `${receiver.baseUrl}/run` });
        await new WorkflowRepository(app.table).create(record);
        const startedAt = app.clock.now().toISOString();
        await new ExecutionRepository(app.table).record({
          workflowId: record.id,
          dispatchId: null,
          runId: `${record.id}:manual:${randomUUID()}`,
          trigger: 'manual',
          startedAt,
          durationMs: 12,
          httpStatus: 200,
          outcome: 'success',
          message: 'Workflow exécuté avec succès',
          attempt: 1,
        });
        const { items } = await new ExecutionRepository(app.table).listByWorkflow(record.id, 1);
        return { workflowId: record.id, executionId: items[0]!.id, startedAt };
      },
      reportToken: async (ownerEmail) => {
        const record = workflowRecord({ lawyerEmail: ownerEmail, webhookUrl: `${receiver.baseUrl}/run` });
        await new WorkflowRepository(app.table).create(record);
        const { url } = reportLinkOf(
          {
            workflowId: record.id,
            runId: `${record.id}:manual:${randomUUID()}`,
            trigger: 'manual',
            startedAt: app.clock.now().toISOString(),
          },
          { webhookSecret: app.webhookSecret, origin: app.publicApiUrl() },
        );
        return url.slice(url.lastIndexOf('/') + 1);
      },
      folder: async () => {
        const { body } = await callRoute<Folder>(app, 'createFolder', {
          token: admin.token,
          body: { name: 'Dossier à supprimer' },
        });
        return body.id;
      },
    };
  });

  afterAll(async () => {
    await exports.dispose();
    await receiver.stop();
    await stripe.stop();
    await queues.stop();
    await disposeTestApp(app);
  });

  it('has a row for every route of the matrix and no other', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(MATRIX_ROUTES).sort());
    expect(Object.keys(MATRIX_ROUTES).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  const cells = (Object.keys(EXPECTED) as MatrixRoute[]).flatMap((route) =>
    CALLERS.map((caller, column) => ({ route, caller, status: EXPECTED[route][column] as number })),
  );

  it.each(cells)('$route as $caller answers $status', async ({ route, caller, status }) => {
    const target = caller === 'notary' ? identities.notary : identities.lawyer;
    const self = caller in identities ? identities[caller as keyof typeof identities] : target;
    const request = await REQUESTS[route]({ self, target, caller, fresh });

    const { statusCode, body } = await callRoute(app, route, { token: tokens[caller], ...request });

    expect(statusCode).toBe(status);
    if (status >= 400) expect(body).toEqual({ error: expect.any(String) });
  });
});
