import { PRICING } from '../../../shared';

const euros = new Intl.NumberFormat('fr-FR', {
  style: 'currency',
  currency: 'EUR',
  maximumFractionDigits: 0,
});

/** The public prices, formatted from the shared constants ("950 €", "150 €"). */
export const PRICES = {
  initial: euros.format(PRICING.initialPaymentCents / 100),
  monthly: euros.format(PRICING.monthlySubscriptionCents / 100),
  /** Charged at checkout: the licence and the first month ("1 100 €"). */
  firstPayment: euros.format(PRICING.firstPaymentCents / 100),
  vatNotice: PRICING.vatNotice,
} as const;
