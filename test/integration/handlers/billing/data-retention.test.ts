import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionRepository } from '../../../../functions/data/billing/subscriptions';
import { RETENTION_ACTOR } from '../../../../functions/domain/directory/audit';
import { createDataRetentionHandler } from '../../../../functions/handlers/billing/data-retention';
import { dataRetentionOf } from '../../../../functions/runtime/services/billing';
import { lawyerServiceOf } from '../../../../functions/runtime/services/directory';
import { MESSAGES } from '../../../../shared/messages';
import type { LawyerSaveReply } from '../../../../shared/schemas/directory';
import type { Workflow } from '../../../../shared/schemas/workflow';
import {
  type BillingTestbed,
  type BoughtLicense,
  buyLicense,
  endOfPaidPeriod,
  startBillingTestbed,
} from '../../../support/billing';
import { callRoute, issueAndSignIn, lawyerFields, signIn, workflowFields } from '../../../support/directory';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Spec §9 retention through the real parts: a firm buys a licence, its lawyer works with it, the
 * subscription is cancelled; 30 days later the retention run (the handler the hourly schedule
 * invokes) deletes the lawyer's data and keeps the billing records.
 */
describe('data retention after cancellation', () => {
  let bed: BillingTestbed;
  let subscriptions: SubscriptionRepository;

  beforeAll(async () => {
    bed = await startBillingTestbed();
    subscriptions = new SubscriptionRepository(bed.app.table);
  });
  afterAll(() => bed.stop());

  const purgeDue = () => createDataRetentionHandler(bed.deps)({});
  const keyHashOf = (bought: BoughtLicense) => bed.vault.hash(bought.licenseKey);

  /** A bought licence whose lawyer has a profile (with a Google password) and one workflow. */
  async function firmAtWork(email?: string) {
    const bought = await buyLicense(bed, email);
    const admin = await issueAndSignIn(bed.deps, 'admin');
    const saved = await callRoute<LawyerSaveReply>(bed.deps, 'saveLawyer', {
      token: admin.token,
      body: lawyerFields({
        email: bought.email,
        licenseKey: bought.licenseKey,
        googlePassword: 'mot-de-passe',
      }),
    });
    expect(saved.statusCode).toBe(201);
    const workflow = await callRoute<Workflow>(bed.deps, 'createWorkflow', {
      token: admin.token,
      body: workflowFields(bought.email),
    });
    expect(workflow.statusCode).toBe(201);
    return { ...bought, lawyerId: saved.body.lawyer.id, workflowId: workflow.body.id };
  }

  /** The firm cancels, then the paid month ends: the subscription ends and the 30 days start. */
  const cancel = async (bought: BoughtLicense) => {
    const reply = await callRoute(bed.deps, 'cancelSubscription', { token: bought.token, body: {} });
    expect(reply.statusCode).toBe(200);
    await endOfPaidPeriod(bed, bought);
  };

  /** What an admin sees of a lawyer and his workflow, signed in now. */
  async function adminView(lawyerId: string, workflowId: string) {
    const admin = await issueAndSignIn(bed.deps, 'admin');
    const lawyer = await callRoute(bed.deps, 'getLawyer', { token: admin.token, params: { id: lawyerId } });
    const workflow = await callRoute(bed.deps, 'getWorkflow', {
      token: admin.token,
      params: { id: workflowId },
    });
    return { lawyer: lawyer.statusCode, workflow: workflow.statusCode };
  }

  it("keeps the lawyer's data for 30 days, then deletes it and keeps the billing records", async () => {
    // Arrange
    const firm = await firmAtWork();
    await cancel(firm);
    const canceled = await subscriptions.billingOfLicense(keyHashOf(firm));
    expect(canceled?.purgeAfter).toBe(new Date(bed.app.clock.now().getTime() + 30 * DAY_MS).toISOString());

    // Act: a day before, then at the purge date
    bed.app.clock.advance(29 * DAY_MS);
    await purgeDue();
    const dayBefore = await adminView(firm.lawyerId, firm.workflowId);
    bed.app.clock.advance(DAY_MS);
    const run = await purgeDue();

    // Assert
    expect(dayBefore).toEqual({ lawyer: 200, workflow: 200 });
    expect(run).toMatchObject({ purged: 1, failed: 0 });
    expect(await adminView(firm.lawyerId, firm.workflowId)).toEqual({ lawyer: 404, workflow: 404 });
    expect(await bed.app.lawyerSecrets.get(firm.lawyerId)).toBeNull();
    expect(await bed.licenses.getByHash(keyHashOf(firm))).toBeNull();
    expect(await signIn(bed.deps, firm.licenseKey)).toEqual({
      valid: false,
      error: MESSAGES.login.invalidKey,
    });
    // Billing records stay, for the 5 legal years from the cancellation.
    const billing = await subscriptions.billingOfLicense(keyHashOf(firm));
    expect(billing).toMatchObject({ subscriptionId: firm.subscriptionId, canceledAt: canceled?.canceledAt });
    expect(await subscriptions.licenseOfSubscription(firm.subscriptionId)).toBe(keyHashOf(firm));
    const admin = await issueAndSignIn(bed.deps, 'admin');
    const audit = await callRoute<{ entries: { action: string; actorEmail: string; target: string }[] }>(
      bed.deps,
      'listAudit',
      { token: admin.token },
    );
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({
        action: 'lawyer.purge',
        actorEmail: RETENTION_ACTOR.email,
        target: `lawyer:${firm.lawyerId}`,
      }),
    );
    // Out of the purge index: the next run has nothing to do.
    expect(await purgeDue()).toMatchObject({ due: 0 });
  });

  it('keeps the new licence a firm bought again under the same e-mail', async () => {
    // Arrange
    const firm = await firmAtWork();
    await cancel(firm);
    const again = await buyLicense(bed, firm.email);

    // Act
    bed.app.clock.advance(30 * DAY_MS);
    await purgeDue();

    // Assert: the old licence and its lawyer's data went; the new licence still signs in.
    expect(await bed.licenses.getByHash(keyHashOf(firm))).toBeNull();
    expect(await adminView(firm.lawyerId, firm.workflowId)).toMatchObject({ lawyer: 404 });
    expect(await signIn(bed.deps, again.licenseKey)).toMatchObject({ valid: true });
  });

  it('deletes a bought licence nobody gave a profile, with its sessions', async () => {
    // Arrange
    const bought = await buyLicense(bed);
    await cancel(bought);

    // Act
    bed.app.clock.advance(30 * DAY_MS);
    await purgeDue();

    // Assert
    expect(await bed.licenses.getByHash(keyHashOf(bought))).toBeNull();
    expect(await callRoute(bed.deps, 'listWorkflows', { token: bought.token })).toMatchObject({
      statusCode: 401,
      body: { error: MESSAGES.session.required },
    });
    expect(await subscriptions.billingOfLicense(keyHashOf(bought))).not.toBeNull();
  });

  it('leaves a licence active again alone, and forgets its cancellation', async () => {
    // Arrange: cancelled, then reactivated by support
    const firm = await firmAtWork();
    await cancel(firm);
    await bed.licenses.updateState(
      keyHashOf(firm),
      { isActive: true, subscriptionStatus: 'active', nextPaymentDue: null, accessEndsAt: null },
      bed.app.clock.now().toISOString(),
    );

    // Act
    bed.app.clock.advance(30 * DAY_MS);
    const run = await purgeDue();

    // Assert
    expect(run).toMatchObject({ reactivated: 1, failed: 0 });
    expect(await adminView(firm.lawyerId, firm.workflowId)).toEqual({ lawyer: 200, workflow: 200 });
    expect(await subscriptions.billingOfLicense(keyHashOf(firm))).toMatchObject({
      canceledAt: null,
      purgeAfter: null,
    });
  });

  it('does not let one failing purge hold back the others, and retries it on the next run', async () => {
    // Arrange
    const failing = await firmAtWork();
    const other = await firmAtWork();
    await cancel(failing);
    await cancel(other);
    bed.app.clock.advance(30 * DAY_MS);
    const lawyers = await lawyerServiceOf(bed.deps);
    // The one mock of the file: a fault injected into the purge of one licence.
    const faulty = dataRetentionOf(bed.app, {
      purgeLicenseHolder: async (keyHash, actor) => {
        if (keyHash === keyHashOf(failing)) throw new Error('Secrets Manager indisponible');
        return lawyers.purgeLicenseHolder(keyHash, actor);
      },
    });

    // Act
    const first = await faulty.purgeDue();
    const second = await purgeDue();

    // Assert
    expect(first).toMatchObject({ due: 2, purged: 1, failed: 1 });
    expect(await adminView(other.lawyerId, other.workflowId)).toMatchObject({ lawyer: 404 });
    expect(second).toMatchObject({ due: 1, purged: 1, failed: 0 });
    expect(await adminView(failing.lawyerId, failing.workflowId)).toMatchObject({ lawyer: 404 });
  });

  it('fails the invocation when a purge failed, so that the schedule retries', async () => {
    // Arrange: a due licence whose lawyer's secrets cannot be deleted
    const firm = await firmAtWork();
    await cancel(firm);
    bed.app.clock.advance(30 * DAY_MS);
    const secrets = bed.app.lawyerSecrets;
    const handler = createDataRetentionHandler({
      ...bed.deps,
      lawyerSecrets: {
        get: (id) => secrets.get(id),
        put: (id, value) => secrets.put(id, value),
        delete: async () => {
          throw new Error('Secrets Manager indisponible');
        },
      },
    });

    // Act / Assert
    await expect(handler({})).rejects.toThrow('Rétention : 1 suppression(s) en échec');
    expect(await adminView(firm.lawyerId, firm.workflowId)).toMatchObject({ lawyer: 200 });
    await purgeDue();
    expect(await adminView(firm.lawyerId, firm.workflowId)).toMatchObject({ lawyer: 404 });
  });
});
