import type {
  CheckoutSession,
  Coupon,
  Customer,
  Invoice,
  PortalSession,
  PromotionCode,
  Subscription,
} from './objects';
import { type WebhookEndpoint, WebhookSender } from './webhooks';

export interface StripeStandInOptions extends WebhookEndpoint {
  /** Default: a free port. The stand-in listens on 127.0.0.1 only. */
  readonly port?: number;
  /** The stand-in's address as a browser reaches it (hosted pages). Default: http://127.0.0.1:<port>. */
  readonly publicBaseUrl?: string;
  /** When set, the only API key accepted; otherwise any `sk_test_...` key. */
  readonly apiKey?: string;
  readonly now?: () => Date;
}

/** A POST answered once under an idempotency key, replayed for a retry with the same body. */
export interface IdempotentReply {
  /** `POST /v1/...`: a key is good for the endpoint it was first used for only. */
  readonly endpoint: string;
  /** When it was answered (seconds): Stripe forgets a key after 24 hours. */
  readonly savedAt: number;
  readonly body: string;
  readonly statusCode: number;
  readonly json: unknown;
}

/**
 * Everything the stand-in knows, in memory, shared by its resources, its pages and its API: one
 * map per Stripe resource, the clock and the webhook sender.
 */
export class StandInState {
  readonly customers = new Map<string, Customer>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly invoices = new Map<string, Invoice>();
  readonly checkoutSessions = new Map<string, CheckoutSession>();
  readonly coupons = new Map<string, Coupon>();
  readonly promotionCodes = new Map<string, PromotionCode>();
  readonly portals = new Map<string, PortalSession>();
  readonly idempotency = new Map<string, IdempotentReply>();
  readonly webhooks: WebhookSender;

  constructor(
    readonly options: StripeStandInOptions,
    /** The stand-in's address as a browser reaches it, without a trailing slash. */
    readonly baseUrl: string,
  ) {
    this.webhooks = new WebhookSender(options, () => this.nowSeconds());
  }

  nowSeconds(): number {
    return Math.floor((this.options.now?.() ?? new Date()).getTime() / 1000);
  }

  /** The coupon behind a promotion code, if the code exists. */
  couponOf(promotion: PromotionCode | undefined): Coupon | undefined {
    return promotion ? this.coupons.get(promotion.couponId) : undefined;
  }

  /** The promotion code applied to a checkout session, if any. */
  promotionOf(session: CheckoutSession): PromotionCode | undefined {
    return session.promotionCodeId ? this.promotionCodes.get(session.promotionCodeId) : undefined;
  }
}
