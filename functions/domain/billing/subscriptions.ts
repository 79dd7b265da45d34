import { MESSAGES } from '../../../shared/messages';
import type { SubscriptionView } from '../../../shared/schemas/billing';
import type { SuccessReply } from '../../../shared/schemas/common';
import type { LicenseKeyVault } from '../../security/license-key-vault';
import { NotFoundError } from '../core/errors';
import type { Clock, Logger } from '../core/ports';
import { LicenseNotFoundError, type LicenseRecord, type Licenses } from '../identity/ports';
import type { Payments, Subscriptions } from './ports';
import { callProvider } from './provider';
import type { SubscriptionSync } from './subscription-sync';

export interface SubscriptionServiceDependencies {
  readonly licenses: Pick<Licenses, 'getByHash' | 'updateUserEmail'>;
  readonly subscriptions: Pick<Subscriptions, 'billingOfLicense'>;
  readonly sync: Pick<SubscriptionSync, 'syncSubscription' | 'applySubscription'>;
  readonly vault: LicenseKeyVault;
  readonly payments: Pick<Payments, 'cancelSubscription' | 'setCancelAtPeriodEnd' | 'createPortalSession'>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The site's public origin (`https://…`, no trailing slash): the portal's return URL. */
  readonly publicUrl: string;
}

/** A member's subscription: its state, its cancellation, the customer portal, the licence's e-mail. */
export class SubscriptionService {
  constructor(private readonly deps: SubscriptionServiceDependencies) {}

  /** check-subscription: the licence as it is, refreshed from Stripe when it has a subscription. */
  async checkSubscription(license: LicenseRecord | null): Promise<SubscriptionView> {
    if (!license) {
      return {
        hasLicense: false,
        licenseActive: false,
        subscriptionStatus: null,
        licenseKey: null,
        nextPaymentDue: null,
        accessEndsAt: null,
      };
    }
    let current = license;
    const billing = await this.deps.subscriptions.billingOfLicense(license.keyHash);
    if (billing) {
      try {
        await this.deps.sync.syncSubscription(billing.subscriptionId);
        current = (await this.deps.licenses.getByHash(license.keyHash)) ?? license;
      } catch (error) {
        // The stored state is still worth showing when Stripe cannot be reached.
        this.deps.logger.warn('Abonnement non rafraîchi depuis Stripe', { errorName: (error as Error).name });
      }
    }
    return {
      hasLicense: true,
      licenseActive: current.isActive,
      subscriptionStatus: current.subscriptionStatus,
      licenseKey: this.deps.vault.decrypt(current.keyCiphertext),
      nextPaymentDue: current.nextPaymentDue,
      accessEndsAt: current.accessEndsAt,
    };
  }

  /**
   * cancel-subscription: stops the renewal at Stripe at once (`cancel_at_period_end`); the licence
   * keeps its access until the end of the paid month, and the confirmation e-mail gives that date.
   * The licence becomes inactive, and the retention clock starts, when Stripe ends the subscription.
   */
  async cancelSubscription(license: LicenseRecord): Promise<SuccessReply> {
    await this.setRenewal(license, false, MESSAGES.subscription.cancelFailed);
    return { success: true };
  }

  /** reactivate-subscription: a cancellation scheduled is withdrawn; the renewal goes on as before. */
  async reactivateSubscription(license: LicenseRecord): Promise<SuccessReply> {
    await this.setRenewal(license, true, MESSAGES.subscription.reactivateFailed);
    return { success: true };
  }

  private async setRenewal(license: LicenseRecord, renew: boolean, failure: string): Promise<void> {
    const billing = await this.deps.subscriptions.billingOfLicense(license.keyHash);
    if (!billing || billing.canceledAt) throw new NotFoundError(failure);
    const updated = await callProvider(this.deps.logger, failure, () =>
      this.deps.payments.setCancelAtPeriodEnd(billing.subscriptionId, !renew),
    );
    // An ended subscription cannot be renewed again: the firm buys a new licence.
    if (renew && updated.status === 'canceled') throw new NotFoundError(failure);
    const work = await this.deps.sync.syncSubscription(billing.subscriptionId);
    // The screen must show the change even if a webhook holds the subscription's lease.
    if (work === 'busy') await this.deps.sync.applySubscription(license.keyHash, updated);
  }

  /**
   * Before an admin deletes a lawyer with his licence: a subscription still running is cancelled
   * at Stripe, so that the firm is not charged for a licence that no longer exists; the end is
   * recorded and confirmed by e-mail like any cancellation. A failure at Stripe throws (424), and
   * the deletion does not happen.
   */
  async endSubscriptionOf(license: LicenseRecord): Promise<void> {
    const billing = await this.deps.subscriptions.billingOfLicense(license.keyHash);
    if (!billing || billing.canceledAt) return;
    const canceled = await callProvider(this.deps.logger, MESSAGES.subscription.cancelFailed, () =>
      this.deps.payments.cancelSubscription(billing.subscriptionId),
    );
    await this.deps.sync.applySubscription(license.keyHash, canceled);
  }

  /** customer-portal: a Stripe customer-portal session for the licence's customer. */
  async customerPortal(license: LicenseRecord, returnPath = '/lawyer/settings'): Promise<{ url: string }> {
    const billing = await this.deps.subscriptions.billingOfLicense(license.keyHash);
    if (!billing) throw new NotFoundError(MESSAGES.subscription.customerPortalFailed);
    return callProvider(this.deps.logger, MESSAGES.subscription.customerPortalFailed, () =>
      this.deps.payments.createPortalSession(billing.customerId, `${this.deps.publicUrl}${returnPath}`),
    );
  }

  /** update-license-email: associates the licence of a key hash (the caller's own) with an e-mail. */
  async updateLicenseEmail(keyHash: string, userEmail: string): Promise<SuccessReply> {
    try {
      await this.deps.licenses.updateUserEmail(keyHash, userEmail, this.deps.clock.now().toISOString());
      return { success: true };
    } catch (error) {
      if (error instanceof LicenseNotFoundError) throw new NotFoundError(MESSAGES.subscription.noLicenseKey);
      throw error;
    }
  }
}
