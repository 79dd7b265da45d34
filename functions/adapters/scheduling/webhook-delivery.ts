import { MESSAGES } from '../../../shared/messages';
import { RETRY_LIMITS } from '../../domain/scheduling/back-off';
import type {
  DeliveryFailure,
  DeliveryOutcome,
  WebhookDelivery,
  WebhookRequest,
} from '../../domain/scheduling/ports';
import { type PinnedResponse, pinnedRequest } from './pinned-request';
import { checkWebhookUrl, type Resolver } from './ssrf-guard';
import {
  InvalidWebhookUrlError,
  PrivateAddressError,
  WebhookResolutionError,
  WebhookTimeoutError,
} from './webhook-errors';
import { signWebhook } from './webhook-signature';

const USER_AGENT = 'assistant-ia-cabinets-webhook/1.0';
const HTTP_DATE = /^[A-Za-z]{3,9},? .*\b\d{2}:\d{2}:\d{2}\b/;

export interface DeliveryRequest {
  readonly url: string;
  /** The JSON value to send; serialised once here, so that the signed bytes are the sent bytes. */
  readonly body: unknown;
  /** The same across the retries of one due run: the receiver drops duplicates by it. */
  readonly messageId: string;
  /** Unix seconds of this attempt. @default now */
  readonly timestamp?: number;
  /** The per-deployment `whsec_…` secret. */
  readonly secret: string;
  /** Total time for resolving, connecting, sending and reading the answer. */
  readonly timeoutMs: number;
  /** Local runtime setting: private and loopback addresses may be called. Never set in AWS. */
  readonly allowPrivate: boolean;
  /** @default the system resolver */
  readonly resolve?: Resolver;
  /** @default () => new Date() */
  readonly now?: () => Date;
}

/**
 * Delivers one signed call to a checked address only and maps what happened to an outcome (French
 * message, retry or not); throws only on a configuration error, never for the receiver or the network.
 */
export async function deliverWebhook(request: DeliveryRequest): Promise<DeliveryOutcome> {
  const now = request.now ?? (() => new Date());
  if (!Number.isFinite(request.timeoutMs) || request.timeoutMs <= 0) {
    throw new RangeError('timeoutMs must be a positive number of milliseconds');
  }
  const body = Buffer.from(serialise(request.body), 'utf8');
  const started = now();
  const timestamp = request.timestamp ?? Math.floor(started.getTime() / 1000);
  const signature = signWebhook(request.secret, request.messageId, timestamp, body);
  const deadline = started.getTime() + request.timeoutMs;
  const elapsed = () => Math.max(0, now().getTime() - started.getTime());

  try {
    const target = await withDeadline(
      checkWebhookUrl(request.url, { resolve: request.resolve, allowPrivate: request.allowPrivate }),
      deadline - now().getTime(),
    );
    const response = await pinnedRequest({
      target,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': USER_AGENT,
        ...signature,
      },
      body,
      timeoutMs: Math.max(1, deadline - now().getTime()),
    });
    return outcomeOfResponse(response, elapsed(), now());
  } catch (error) {
    return outcomeOfError(error, elapsed());
  }
}

/** The webhook delivery of a world: its signing secret, and whether private addresses may be called. */
export function createWebhookDelivery(settings: {
  readonly signingSecret: () => Promise<string>;
  readonly allowPrivate: boolean;
}): WebhookDelivery {
  return {
    deliver: async (request: WebhookRequest) =>
      deliverWebhook({
        ...request,
        secret: await settings.signingSecret(),
        allowPrivate: settings.allowPrivate,
      }),
  };
}

/**
 * A Retry-After header in seconds: delta-seconds or an HTTP date, capped at
 * `RETRY_LIMITS.maxRetryAfterSeconds`; undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | readonly string[] | undefined,
  now: Date,
): number | undefined {
  const text = (typeof value === 'string' ? value : value?.[0])?.trim();
  if (!text) return undefined;
  let seconds: number;
  if (/^\d+$/.test(text)) {
    seconds = Number(text);
  } else {
    // The three HTTP-date forms start with a day name and hold hh:mm:ss; Date.parse alone would
    // also read '-5' or '1.5' as dates.
    const date = HTTP_DATE.test(text) ? Date.parse(text) : Number.NaN;
    if (Number.isNaN(date)) return undefined;
    seconds = Math.max(0, Math.ceil((date - now.getTime()) / 1000));
  }
  return Math.min(seconds, RETRY_LIMITS.maxRetryAfterSeconds);
}

function serialise(body: unknown): string {
  const json = JSON.stringify(body);
  if (json === undefined) throw new TypeError('The webhook body must be a JSON value');
  return json;
}

function withDeadline<T>(work: Promise<T>, remainingMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WebhookTimeoutError()), Math.max(0, remainingMs));
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

function outcomeOfResponse(response: PinnedResponse, durationMs: number, receivedAt: Date): DeliveryOutcome {
  const { status } = response;
  const responseJson = response.json === undefined ? {} : { responseJson: response.json };
  if (status >= 200 && status < 300) {
    return {
      ok: true,
      httpStatus: status,
      durationMs,
      retryable: false,
      message: MESSAGES.workflow.workflowExecuted,
      ...responseJson,
    };
  }
  const retryable = status >= 500 || status === 429 || status === 408;
  const retryAfter = retryable ? parseRetryAfter(response.headers['retry-after'], receivedAt) : undefined;
  return {
    ok: false,
    httpStatus: status,
    durationMs,
    retryable,
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
    message: messageOfStatus(status, response.statusText),
    failure: status >= 300 && status < 400 ? 'redirect' : 'http-status',
    ...responseJson,
  };
}

function messageOfStatus(status: number, statusText: string): string {
  if (status >= 300 && status < 400) return MESSAGES.execution.redirectRefused;
  if (status === 404) return MESSAGES.execution.notFoundInactive;
  if (status === 403) return MESSAGES.execution.forbidden;
  if (status === 500) return MESSAGES.execution.serverError;
  // The reason phrase comes from the receiver: printable ASCII only, and short.
  const reason = statusText
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, 80)
    .trim();
  return MESSAGES.execution.other(reason === '' ? `HTTP ${status}` : `HTTP ${status} ${reason}`);
}

function outcomeOfError(error: unknown, durationMs: number): DeliveryOutcome {
  const failed = (failure: DeliveryFailure, message: string, retryable: boolean): DeliveryOutcome => ({
    ok: false,
    httpStatus: null,
    durationMs,
    retryable,
    message,
    failure,
  });
  if (error instanceof InvalidWebhookUrlError) return failed('invalid-url', error.message, false);
  if (error instanceof PrivateAddressError) return failed('private-address', error.message, false);
  if (error instanceof WebhookTimeoutError) return failed('timeout', error.message, true);
  if (error instanceof WebhookResolutionError) return failed('network', error.message, true);
  const code = errnoCode(error);
  if (code === undefined) {
    return failed('network', MESSAGES.execution.connectionError(MESSAGES.execution.connection.unknown), true);
  }
  if (code === 'ETIMEDOUT') return failed('timeout', MESSAGES.execution.timeout, true);
  if (code === 'ECONNRESET' || code === 'EPIPE')
    return failed('network', MESSAGES.execution.noResponse, true);
  return failed('network', MESSAGES.execution.connectionError(connectionDetail(code)), true);
}

function connectionDetail(code: string): string {
  const { connection } = MESSAGES.execution;
  if (code === 'ECONNREFUSED') return `${connection.refused} (${code})`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${connection.unreachable} (${code})`;
  if (code === 'ENOTFOUND') return `${connection.hostNotFound} (${code})`;
  if (code.startsWith('ERR_TLS_') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) {
    return `${connection.tls} (${code})`;
  }
  if (code.startsWith('ERR_SSL_') || code === 'EPROTO') return `${connection.tlsFailed} (${code})`;
  return code;
}

function errnoCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
