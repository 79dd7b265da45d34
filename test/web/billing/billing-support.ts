import { type Mock, vi } from 'vitest';

import type { SubscriptionView } from '../../../shared';
import { emptyBackend, jsonResponse, type SentRequest } from '../support/fetch-mock';

type Answer = (request: SentRequest) => Response | Promise<Response>;

/**
 * A backend whose billing calls answer as given (by API path); every other call answers as an
 * empty deployment does.
 */
export function billingBackend(answers: Record<string, Answer>) {
  return (request: SentRequest): Response | Promise<Response> => {
    const path = new URL(request.url, 'http://localhost').pathname;
    const answer = answers[path];
    return answer ? answer(request) : emptyBackend(request);
  };
}

/** A JSON answer, the same for every request. */
export function answerWith(status: number, body: unknown): Answer {
  return () => jsonResponse(status, body);
}

/** A check-subscription reply: an active, paid-up licence unless told otherwise. */
export function subscriptionView(overrides: Partial<SubscriptionView> = {}): SubscriptionView {
  return {
    hasLicense: true,
    licenseActive: true,
    subscriptionStatus: 'active',
    licenseKey: 'NOTARY-K7Q2M9XB',
    nextPaymentDue: inDays(20),
    accessEndsAt: null,
    ...overrides,
  };
}

/** An ISO timestamp this many days from now (negative: in the past), at noon local time. */
export function inDays(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  date.setHours(12, 0, 0, 0);
  return date.toISOString();
}

/**
 * Replaces `window.location` by a copy whose `assign` is recorded: jsdom cannot leave for another
 * site (the payment page, the customer portal). Undone by `vi.unstubAllGlobals()`.
 */
export function watchPageChanges(): Mock<(url: string | URL) => void> {
  const real = window.location;
  const assign = vi.fn<(url: string | URL) => void>();
  const copy: Record<string, unknown> = {
    assign,
    reload: vi.fn(),
    replace: vi.fn(),
    toString: () => real.href,
  };
  for (const key of [
    'href',
    'origin',
    'protocol',
    'host',
    'hostname',
    'port',
    'pathname',
    'search',
    'hash',
  ] as const) {
    Object.defineProperty(copy, key, { get: () => real[key], enumerable: true });
  }
  vi.stubGlobal('location', copy);
  return assign;
}
