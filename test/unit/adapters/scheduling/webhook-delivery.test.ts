import { createHmac, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { type AddressInfo, createServer as createNetServer } from 'node:net';

import { describe, expect, it } from 'vitest';

import {
  type DeliveryRequest,
  deliverWebhook,
  parseRetryAfter,
} from '../../../../functions/adapters/scheduling/webhook-delivery';
import {
  generateWebhookSecret,
  verifyWebhook,
} from '../../../../functions/adapters/scheduling/webhook-signature';
import { backoffSeconds } from '../../../../functions/domain/scheduling/back-off';
import { MESSAGES } from '../../../../shared/messages';
import {
  closedPort,
  type ReceiverHandler,
  receiversClosedAfterEach,
  scriptedResolver,
} from '../../../support/receiver';

const SECRET = generateWebhookSecret();
const BODY = { timestamp: '2025-05-21T08:00:00.000Z', source: 'notary_app', trigger: 'manual' };
const SHORT_TIMEOUT_MS = 300;

const receiver = receiversClosedAfterEach();

/** One delivery to a loopback receiver (private addresses allowed, as in the local runtime). */
function deliver(overrides: Partial<DeliveryRequest> & Pick<DeliveryRequest, 'url'>) {
  return deliverWebhook({
    body: BODY,
    messageId: `run_${randomUUID()}`,
    secret: SECRET,
    timeoutMs: 5_000,
    allowPrivate: true,
    ...overrides,
  });
}

function answering(status: number, headers: Record<string, string> = {}, body = ''): ReceiverHandler {
  return (_request, response) => {
    response.writeHead(status, headers);
    response.end(body);
  };
}

describe('deliverWebhook to a receiver that accepts the call', () => {
  it('POSTs the JSON body once and reports success with the JSON answer', async () => {
    const n8n = await receiver();

    const outcome = await deliver({ url: `${n8n.origin}/webhook/relance` });

    expect(outcome).toMatchObject({
      ok: true,
      httpStatus: 200,
      retryable: false,
      message: 'Workflow exécuté avec succès',
      responseJson: { message: 'Workflow was started' },
    });
    expect(outcome.failure).toBeUndefined();
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(n8n.calls).toHaveLength(1);
    expect(n8n.calls[0]).toMatchObject({ method: 'POST', url: '/webhook/relance' });
    expect(n8n.calls[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(n8n.calls[0]?.body.toString('utf8') ?? '')).toEqual(BODY);
  });

  it('signs the call so that the receiver can verify it, with our code and without it', async () => {
    const n8n = await receiver();
    const messageId = `run_${randomUUID()}`;
    const timestamp = Math.floor(Date.now() / 1000);

    await deliver({ url: n8n.origin, messageId, timestamp });

    const [call] = n8n.calls;
    expect(call?.headers['webhook-id']).toBe(messageId);
    expect(call?.headers['webhook-timestamp']).toBe(String(timestamp));
    expect(verifyWebhook(SECRET, call?.headers ?? {}, call?.body ?? '')).toEqual({
      valid: true,
      id: messageId,
      timestamp,
    });
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key)
      .update(`${messageId}.${timestamp}.${call?.body.toString('utf8')}`)
      .digest('base64');
    expect(call?.headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('keeps one webhook-id across the attempts of one run, with a fresh timestamp each time', async () => {
    const n8n = await receiver();
    const messageId = `run_${randomUUID()}`;

    await deliver({ url: n8n.origin, messageId, timestamp: 1_750_000_000 });
    await deliver({ url: n8n.origin, messageId, timestamp: 1_750_000_060 });

    expect(n8n.calls.map((call) => call.headers['webhook-id'])).toEqual([messageId, messageId]);
    expect(n8n.calls.map((call) => call.headers['webhook-timestamp'])).toEqual(['1750000000', '1750000060']);
  });

  it("keeps the URL's host name in the Host header while connecting to the checked address", async () => {
    const n8n = await receiver();
    const resolver = scriptedResolver(['127.0.0.1']);

    const outcome = await deliver({
      url: `http://n8n.cabinet.test:${n8n.port}/webhook/a`,
      resolve: resolver.resolve,
    });

    expect(outcome.ok).toBe(true);
    expect(n8n.calls[0]?.headers.host).toBe(`n8n.cabinet.test:${n8n.port}`);
    expect(resolver.calls).toEqual(['n8n.cabinet.test']);
  });

  it('counts any 2xx as success, with or without a JSON answer', async () => {
    const noContent = await receiver(answering(204));
    const text = await receiver(answering(202, { 'content-type': 'text/plain' }, 'Accepted'));

    const outcomes = await Promise.all([deliver({ url: noContent.origin }), deliver({ url: text.origin })]);

    expect(outcomes.map(({ ok, httpStatus }) => [ok, httpStatus])).toEqual([
      [true, 204],
      [true, 202],
    ]);
    expect(outcomes.map(({ responseJson }) => responseJson)).toEqual([undefined, undefined]);
  });

  it('reads at most 64 KB of the answer and drops the JSON it cannot finish', async () => {
    const huge = JSON.stringify({ data: 'x'.repeat(200 * 1024) });
    const n8n = await receiver(answering(200, { 'content-type': 'application/json' }, huge));

    const outcome = await deliver({ url: n8n.origin });

    expect(outcome).toMatchObject({ ok: true, httpStatus: 200 });
    expect(outcome.responseJson).toBeUndefined();
  });

  it('reports success when the status arrived but the body never finished', async () => {
    const n8n = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"message":');
    });

    const outcome = await deliver({ url: n8n.origin, timeoutMs: SHORT_TIMEOUT_MS });

    expect(outcome).toMatchObject({ ok: true, httpStatus: 200 });
    expect(outcome.responseJson).toBeUndefined();
  });
});

describe('deliverWebhook to a receiver that refuses the call', () => {
  it.each([
    {
      status: 404,
      message: "Webhook introuvable - vérifiez l'URL (workflow inactif dans n8n ?)",
      retryable: false,
    },
    { status: 403, message: MESSAGES.execution.forbidden, retryable: false },
    { status: 400, message: "Erreur d'exécution: HTTP 400 Bad Request", retryable: false },
    { status: 401, message: "Erreur d'exécution: HTTP 401 Unauthorized", retryable: false },
    { status: 422, message: "Erreur d'exécution: HTTP 422 Unprocessable Entity", retryable: false },
    { status: 408, message: "Erreur d'exécution: HTTP 408 Request Timeout", retryable: true },
    { status: 429, message: "Erreur d'exécution: HTTP 429 Too Many Requests", retryable: true },
    { status: 500, message: 'Erreur serveur du webhook - vérifiez la configuration', retryable: true },
    { status: 502, message: "Erreur d'exécution: HTTP 502 Bad Gateway", retryable: true },
    { status: 503, message: "Erreur d'exécution: HTTP 503 Service Unavailable", retryable: true },
    { status: 504, message: "Erreur d'exécution: HTTP 504 Gateway Timeout", retryable: true },
  ])('maps $status to its message, retryable $retryable', async ({ status, message, retryable }) => {
    const n8n = await receiver(answering(status));

    const outcome = await deliver({ url: n8n.origin });

    expect(outcome).toMatchObject({
      ok: false,
      httpStatus: status,
      message,
      retryable,
      failure: 'http-status',
    });
    expect(outcome.retryAfterSeconds).toBeUndefined();
  });

  it("keeps n8n's JSON explanation of a 404 for the logs", async () => {
    const explanation = { code: 404, message: 'The requested webhook "POST relance" is not registered.' };
    const n8n = await receiver(
      answering(404, { 'content-type': 'application/json' }, JSON.stringify(explanation)),
    );

    const outcome = await deliver({ url: n8n.origin });

    expect(outcome).toMatchObject({
      message: MESSAGES.execution.notFoundInactive,
      responseJson: explanation,
    });
  });

  it("shortens the receiver's reason phrase", async () => {
    const n8n = await receiver((_request, response) => {
      response.writeHead(520, `Unknown Error ${'x'.repeat(200)}`);
      response.end();
    });

    const outcome = await deliver({ url: n8n.origin });

    expect(outcome.message).toBe(`Erreur d'exécution: HTTP 520 Unknown Error ${'x'.repeat(66)}`);
  });

  it('uses the status alone when the receiver sends no reason phrase', async () => {
    const raw = createNetServer((socket) => {
      socket.once('data', () =>
        socket.end('HTTP/1.1 599 \r\ncontent-length: 0\r\nconnection: close\r\n\r\n'),
      );
    });
    raw.listen(0, '127.0.0.1');
    await once(raw, 'listening');
    try {
      const { port } = raw.address() as AddressInfo;

      const outcome = await deliver({ url: `http://127.0.0.1:${port}/` });

      expect(outcome).toMatchObject({
        httpStatus: 599,
        retryable: true,
        message: "Erreur d'exécution: HTTP 599",
      });
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('honours Retry-After in seconds on a 429', async () => {
    const n8n = await receiver(answering(429, { 'retry-after': '30' }));

    const outcome = await deliver({ url: n8n.origin });

    expect(outcome).toMatchObject({ retryable: true, retryAfterSeconds: 30 });
  });

  it('honours Retry-After as an HTTP date on a 503', async () => {
    const now = new Date('2025-05-21T08:00:00.000Z');
    const retryAt = new Date(now.getTime() + 90_000).toUTCString();
    const n8n = await receiver(answering(503, { 'retry-after': retryAt }));

    const outcome = await deliver({ url: n8n.origin, now: () => now });

    expect(outcome).toMatchObject({ retryable: true, retryAfterSeconds: 90 });
  });

  it('caps a Retry-After of a day at 15 minutes', async () => {
    const n8n = await receiver(answering(429, { 'retry-after': '86400' }));

    const outcome = await deliver({ url: n8n.origin });

    expect(outcome.retryAfterSeconds).toBe(900);
  });

  it('ignores Retry-After on a final answer', async () => {
    const n8n = await receiver(answering(403, { 'retry-after': '30' }));

    const outcome = await deliver({ url: n8n.origin });

    expect(outcome).toMatchObject({ retryable: false, httpStatus: 403 });
    expect(outcome.retryAfterSeconds).toBeUndefined();
  });
});

describe('deliverWebhook when no answer comes', () => {
  it('gives up after the time-out on a receiver that never answers, worth retrying', async () => {
    const silent = await receiver(() => {});

    const outcome = await deliver({ url: silent.origin, timeoutMs: SHORT_TIMEOUT_MS });

    expect(outcome).toMatchObject({
      ok: false,
      httpStatus: null,
      retryable: true,
      failure: 'timeout',
      message: "Délai d'attente dépassé : le webhook n'a pas répondu à temps",
    });
    expect(silent.calls).toHaveLength(1);
  });

  it('counts a DNS answer that never comes against the same time-out', async () => {
    const resolve = () => new Promise<never>(() => {});

    const outcome = await deliver({ url: 'https://n8n.cabinet.test/', resolve, timeoutMs: SHORT_TIMEOUT_MS });

    expect(outcome).toMatchObject({
      failure: 'timeout',
      retryable: true,
      message: MESSAGES.execution.timeout,
    });
  });

  it('reports a refused connection, worth retrying', async () => {
    const port = await closedPort();

    const outcome = await deliver({ url: `http://127.0.0.1:${port}/webhook/a` });

    expect(outcome).toMatchObject({
      ok: false,
      httpStatus: null,
      retryable: true,
      failure: 'network',
      message: 'Erreur de connexion: connexion refusée (ECONNREFUSED)',
    });
  });

  it('reports a connection closed without an answer, worth retrying', async () => {
    const rude = await receiver((request) => request.socket.destroy());

    const outcome = await deliver({ url: rude.origin });

    expect(outcome).toMatchObject({
      failure: 'network',
      retryable: true,
      message: 'Aucune réponse reçue du serveur',
    });
  });

  it('reports a name that does not resolve, worth retrying', async () => {
    const resolve = async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN n8n.cabinet.test'), { code: 'EAI_AGAIN' });
    };

    const outcome = await deliver({ url: 'https://n8n.cabinet.test/', resolve });

    expect(outcome).toMatchObject({
      failure: 'network',
      retryable: true,
      message: 'Erreur de connexion: résolution DNS momentanément impossible (EAI_AGAIN)',
    });
  });
});

describe('deliverWebhook before any connection', () => {
  it('refuses an invalid URL for good', async () => {
    const outcome = await deliver({ url: 'file:///etc/passwd' });

    expect(outcome).toMatchObject({
      ok: false,
      httpStatus: null,
      retryable: false,
      failure: 'invalid-url',
      message: 'URL du webhook invalide',
    });
  });

  it('refuses a private address for good when private addresses are not allowed', async () => {
    const n8n = await receiver();

    const outcome = await deliver({ url: n8n.origin, allowPrivate: false });

    expect(outcome).toMatchObject({
      ok: false,
      httpStatus: null,
      retryable: false,
      failure: 'private-address',
      message: MESSAGES.execution.privateAddress,
    });
    expect(n8n.connections()).toBe(0);
  });

  it.each([
    ['a secret that cannot sign', { secret: 'whsec_' }],
    ['a message id with a line break', { messageId: 'run\r\nx-injected: 1' }],
    ['a body that is not JSON', { body: undefined }],
    ['a time-out of zero', { timeoutMs: 0 }],
  ])('throws on %s, a configuration error', async (_what, overrides) => {
    const n8n = await receiver();

    await expect(deliver({ url: n8n.origin, ...overrides })).rejects.toThrow();
    expect(n8n.connections()).toBe(0);
  });
});

describe('backoffSeconds', () => {
  it('doubles the ceiling at each attempt from 5 seconds up to 15 minutes', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 8, 9, 50].map((attempt) =>
      backoffSeconds(attempt, undefined, () => 1),
    );

    expect(ceilings).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 900, 900]);
  });

  it('draws uniformly below the ceiling (full jitter), never less than a second', () => {
    expect(backoffSeconds(3, undefined, () => 0.5)).toBe(10);
    expect(backoffSeconds(3, undefined, () => 0.01)).toBe(1);
    expect(backoffSeconds(1, undefined, () => 0)).toBe(1);
  });

  it("waits at least the receiver's Retry-After, and never beyond the cap", () => {
    expect(backoffSeconds(1, 120, () => 0)).toBe(120);
    expect(backoffSeconds(8, 10, () => 1)).toBe(640);
    expect(backoffSeconds(1, 5_000, () => 0)).toBe(900);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses the attempt number %s', (attempt) => {
    expect(() => backoffSeconds(attempt)).toThrow(RangeError);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2025-05-21T08:00:00.000Z');

  it.each([
    ['delta-seconds', '120', 120],
    ['zero', '0', 0],
    ['spaces around', ' 45 ', 45],
    ['an HTTP date', 'Wed, 21 May 2025 08:02:00 GMT', 120],
    ['a date in the past', 'Wed, 21 May 2025 07:00:00 GMT', 0],
    ['more than the cap', '3600', 900],
    ['the first of repeated headers', ['7', '9'], 7],
  ])('reads %s', (_what, value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it.each([undefined, '', 'soon', '-5', '1.5'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
