import { describe, expect, it } from 'vitest';
import type { SubscriptionState } from '../../../../functions/domain/billing/ports';
import { hasAccess, licenseStateOf } from '../../../../functions/domain/identity/license-state';

const periodStart = new Date('2026-11-22T10:00:00.000Z');
const periodEnd = new Date('2026-12-22T10:00:00.000Z');

const subscription = (status: string): SubscriptionState => ({
  id: 'sub_1',
  status,
  customerId: 'cus_1',
  currentPeriodStart: periodStart,
  currentPeriodEnd: periodEnd,
  cancelAtPeriodEnd: false,
  metadata: {},
});

describe('licenseStateOf', () => {
  it.each([
    ['active', true, periodEnd.toISOString()],
    ['trialing', true, periodEnd.toISOString()],
    ['past_due', true, periodStart.toISOString()],
    ['unpaid', false, periodStart.toISOString()],
    ['canceled', false, null],
    ['incomplete', false, periodEnd.toISOString()],
    ['incomplete_expired', false, null],
    ['paused', false, periodEnd.toISOString()],
  ])('a %s subscription gives access %s, next payment due %s', (status, isActive, nextPaymentDue) => {
    // Act
    const state = licenseStateOf(subscription(status));

    // Assert
    expect(state).toEqual({ isActive, subscriptionStatus: status, nextPaymentDue, accessEndsAt: null });
  });

  it('keeps access until the period end when the renewal is stopped, with no payment due', () => {
    // Act
    const state = licenseStateOf({ ...subscription('active'), cancelAtPeriodEnd: true });

    // Assert
    expect(state).toEqual({
      isActive: true,
      subscriptionStatus: 'active',
      nextPaymentDue: null,
      accessEndsAt: periodEnd.toISOString(),
    });
  });

  it('has no end of access once the subscription has ended', () => {
    // Act
    const state = licenseStateOf({ ...subscription('canceled'), cancelAtPeriodEnd: true });

    // Assert
    expect(state).toMatchObject({ isActive: false, accessEndsAt: null });
  });

  it('has no next payment due when the subscription has no period', () => {
    // Act
    const state = licenseStateOf({
      ...subscription('active'),
      currentPeriodStart: null,
      currentPeriodEnd: null,
    });

    // Assert
    expect(state.nextPaymentDue).toBeNull();
  });

  it('refuses access for a status it does not know', () => {
    // Act
    const access = hasAccess('some_future_status');

    // Assert
    expect(access).toBe(false);
  });
});
