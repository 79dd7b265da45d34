import { randomUUID } from 'node:crypto';

import { RETENTION_DAYS } from '../../../shared/constants';
import { generateLicenseKey } from '../../../shared/license-key';
import type { LicenseKeyVault } from '../../security/license-key-vault';
import type { Clock, Logger, Mailer, MailMessage } from '../core/ports';
import { licenseStateOf, sameLicenseState } from '../identity/license-state';
import { newLicenseRecord } from '../identity/licenses';
import { LicenseNotFoundError, type LicenseRecord, type Licenses } from '../identity/ports';
import { PaymentsError } from './billing-errors';
import { cancellationEmail, cancellationScheduledEmail, licenseKeyEmail } from './emails';
import type {
  BillingEmail,
  CheckoutRecord,
  CheckoutSessionState,
  Payments,
  SubscriptionState,
  Subscriptions,
} from './ports';
import { licenseMailTags } from './undelivered-mail';

export interface SubscriptionSyncDependencies {
  readonly licenses: Pick<Licenses, 'getByHash' | 'updateState'>;
  readonly subscriptions: Subscriptions;
  readonly vault: LicenseKeyVault;
  readonly payments: Pick<Payments, 'retrieveCheckoutSession' | 'retrieveSubscription'>;
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The site's public origin (`https://…`, no trailing slash): the e-mails' links. */
  readonly publicUrl: string;
}

/** Payment states of a checkout that mean the first invoice is settled. */
const SETTLED: ReadonlySet<string> = new Set(['paid', 'no_payment_required']);

/** Leases, in milliseconds: longer than one handler run, short enough for a retry to take over. */
const LOCK_LEASE_MS = 30_000;
const EMAIL_LEASE_MS = 60_000;
/** How long a caller waits for the lock of its subscription before answering `busy`. */
const LOCK_ATTEMPTS = 20;
const LOCK_RETRY_MS = 250;
const DAY_MS = 24 * 60 * 60 * 1000;

/** 'busy' when another delivery or call held the subscription's lease for the whole wait. */
export type Work = 'done' | 'busy';

/**
 * Keeps a licence in step with its subscription: issues the licence of a paid checkout once, applies
 * the subscription's current state at Stripe under a lease per subscription (so arrival order and
 * slow readers cannot leave an older state), and sends each e-mail once.
 */
export class SubscriptionSync {
  private readonly licenses: SubscriptionSyncDependencies['licenses'];
  private readonly subscriptions: Subscriptions;

  constructor(private readonly deps: SubscriptionSyncDependencies) {
    this.licenses = deps.licenses;
    this.subscriptions = deps.subscriptions;
  }

  /**
   * checkout.session.completed: issues the checkout's licence exactly once, in the state its
   * subscription is in now, then e-mails the key exactly once.
   */
  async fulfilCheckout(checkoutSessionId: string | null): Promise<Work | 'no-checkout'> {
    if (!checkoutSessionId) return 'no-checkout';
    const session = await this.deps.payments.retrieveCheckoutSession(checkoutSessionId);
    if (session?.status !== 'complete' || !SETTLED.has(session.paymentStatus)) return 'no-checkout';
    const { subscriptionId } = session;
    if (!subscriptionId) return 'no-checkout';
    return this.withSubscriptionLock(subscriptionId, async () => {
      const subscription = await this.deps.payments.retrieveSubscription(subscriptionId);
      if (!subscription) throw new PaymentsError(`Abonnement ${subscriptionId} introuvable chez Stripe`);
      let checkout = await this.subscriptions.getCheckout(session.id);
      if (!checkout) checkout = await this.issueLicense(session, subscription);
      // The key first: a subscription already ended also gets its cancellation e-mail, after it.
      await this.sendLicenseKeyOnce(checkout, session.amountTotalCents);
      await this.applySubscription(checkout.keyHash, subscription);
    });
  }

  /** Creates the licence and its links in one transaction; a concurrent twin makes this a no-op. */
  private async issueLicense(
    session: CheckoutSessionState,
    subscription: SubscriptionState,
  ): Promise<CheckoutRecord> {
    const now = this.deps.clock.now();
    const email = session.email?.trim().toLowerCase() || null;
    for (let attempt = 0; attempt < 5; attempt++) {
      const licenseKey = generateLicenseKey();
      const record: LicenseRecord = {
        ...newLicenseRecord(
          this.deps.vault,
          licenseKey,
          { licenseType: 'lawyer', userEmail: email },
          now.toISOString(),
        ),
        ...licenseStateOf(subscription),
      };
      const issued = await this.subscriptions.issueLicense(record, {
        checkoutSessionId: session.id,
        subscriptionId: subscription.id,
        customerId: subscription.customerId,
        keyHash: record.keyHash,
        email,
        now,
      });
      if (issued) {
        this.deps.logger.info('Licence émise après paiement', { checkoutSessionId: session.id });
        const checkout = await this.subscriptions.getCheckout(session.id);
        if (!checkout) throw new Error('Paiement sans trace après émission de licence');
        return checkout;
      }
      const existing = await this.subscriptions.getCheckout(session.id);
      if (existing) return existing;
      // Otherwise the generated key collided with an existing one: draw another.
    }
    throw new Error('Impossible de générer une clé de licence unique');
  }

  private async sendLicenseKeyOnce(checkout: CheckoutRecord, amountPaidCents: number | null): Promise<void> {
    if (checkout.emailSentAt || !checkout.email) return;
    const to = checkout.email;
    await this.sendOnce({ kind: 'license-key', checkoutSessionId: checkout.checkoutSessionId }, async () => {
      const license = await this.licenses.getByHash(checkout.keyHash);
      if (!license) return null;
      return {
        ...licenseKeyEmail({
          to,
          licenseKey: this.deps.vault.decrypt(license.keyCiphertext),
          loginUrl: `${this.deps.publicUrl}/login`,
          amountPaidCents,
        }),
        tags: licenseMailTags(license.keyHash),
      };
    });
  }

  /** Brings the licence of a subscription to the subscription's current state. */
  async syncSubscription(subscriptionId: string | null): Promise<Work | 'no-subscription' | 'no-license'> {
    if (!subscriptionId) return 'no-subscription';
    // Before the checkout is applied there is no licence yet: the checkout will read the then current state.
    if (!(await this.subscriptions.licenseOfSubscription(subscriptionId))) return 'no-license';
    return this.withSubscriptionLock(subscriptionId, async () => {
      const keyHash = await this.subscriptions.licenseOfSubscription(subscriptionId);
      const subscription = await this.deps.payments.retrieveSubscription(subscriptionId);
      if (keyHash && subscription) await this.applySubscription(keyHash, subscription);
    });
  }

  /** Writes the licence state the subscription calls for; an ended subscription starts the retention clock. */
  async applySubscription(keyHash: string, subscription: SubscriptionState): Promise<void> {
    const license = await this.licenses.getByHash(keyHash);
    if (!license) return;
    const next = licenseStateOf(subscription);
    if (!sameLicenseState(license, next)) {
      try {
        await this.licenses.updateState(keyHash, next, this.deps.clock.now().toISOString());
      } catch (error) {
        // Deleted meanwhile (with its lawyer): nothing left to keep in step.
        if (error instanceof LicenseNotFoundError) return;
        throw error;
      }
      this.deps.logger.info('Licence mise à jour depuis Stripe', {
        subscriptionId: subscription.id,
        subscriptionStatus: next.subscriptionStatus,
        isActive: next.isActive,
      });
    }
    if (subscription.status === 'canceled') await this.recordCancellation(license);
    else if (next.accessEndsAt) await this.confirmScheduledCancellation(license, next.accessEndsAt);
  }

  /** Confirms once per date, to the billing address, that the renewal stopped and when access ends. */
  private async confirmScheduledCancellation(license: LicenseRecord, accessEndsAt: string): Promise<void> {
    const billing = await this.subscriptions.billingOfLicense(license.keyHash);
    const to = billing?.billingEmail ?? license.userEmail;
    if (!to) return;
    const message = cancellationScheduledEmail({ to, accessEndsAt: new Date(accessEndsAt) });
    await this.sendOnce(
      { kind: 'cancellation-scheduled', keyHash: license.keyHash, accessEndsAt },
      async () => message,
    );
  }

  /** Records the end of a subscription once (purge date 30 days later) and confirms it once by e-mail. */
  private async recordCancellation(license: LicenseRecord): Promise<void> {
    const now = this.deps.clock.now();
    const purgeAfter = new Date(now.getTime() + RETENTION_DAYS.afterCancellation * DAY_MS);
    const billing = await this.subscriptions.recordCancellation(license.keyHash, now, purgeAfter);
    // The billing address (the buyer's), not the e-mail the licence was associated with since.
    const to = billing?.billingEmail ?? license.userEmail;
    if (!billing?.canceledAt || !billing.purgeAfter || billing.cancellationEmailSentAt || !to) return;
    const message = cancellationEmail({
      to,
      canceledAt: new Date(billing.canceledAt),
      purgeAfter: new Date(billing.purgeAfter),
    });
    await this.sendOnce({ kind: 'cancellation', keyHash: license.keyHash }, async () => message);
  }

  /**
   * Sends an e-mail if this caller wins its claim; a failed send gives the claim up and throws, so
   * that the event is delivered again and the e-mail retried.
   */
  private async sendOnce(email: BillingEmail, compose: () => Promise<MailMessage | null>): Promise<void> {
    if (!(await this.subscriptions.claimEmail(email, this.deps.clock.now(), EMAIL_LEASE_MS))) return;
    let message: MailMessage | null;
    try {
      message = await compose();
      if (message) await this.deps.mailer.send(message);
    } catch (error) {
      await this.subscriptions.releaseEmailClaim(email).catch(() => undefined);
      throw error;
    }
    if (message) await this.subscriptions.markEmailSent(email, this.deps.clock.now());
    else await this.subscriptions.releaseEmailClaim(email);
  }

  /** Runs `work` holding the subscription's lease; 'busy' if it stays taken for the whole wait. */
  private async withSubscriptionLock(subscriptionId: string, work: () => Promise<void>): Promise<Work> {
    const owner = randomUUID();
    for (let attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
      if (await this.subscriptions.acquireLock(subscriptionId, owner, this.deps.clock.now(), LOCK_LEASE_MS)) {
        try {
          await work();
          return 'done';
        } finally {
          await this.subscriptions.releaseLock(subscriptionId, owner);
        }
      }
      await this.deps.clock.sleep(LOCK_RETRY_MS);
    }
    return 'busy';
  }
}
