import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  type DeliveryRequest,
  deliverWebhook,
} from '../../../functions/adapters/scheduling/webhook-delivery';
import { generateWebhookSecret } from '../../../functions/adapters/scheduling/webhook-signature';
import { PLAIN_FAILURES, plainWording } from '../../../shared/execution-wording';
import { HEALTH_MESSAGES } from '../../../shared/health-messages';
import { MESSAGES } from '../../../shared/messages';
import { closedPort, receiversClosedAfterEach } from '../../support/receiver';

const receiver = receiversClosedAfterEach();

/** One real call, as the worker makes it, to what the test set up. */
function deliver(overrides: Partial<DeliveryRequest> & Pick<DeliveryRequest, 'url'>) {
  return deliverWebhook({
    body: { source: 'notary_app' },
    messageId: `run_${randomUUID()}`,
    secret: generateWebhookSecret(),
    timeoutMs: 5_000,
    allowPrivate: true,
    ...overrides,
  });
}

/** A resolver that fails as the system one does, with the errno code given. */
const failingResolver = (code: string) => async () => {
  throw Object.assign(new Error(`getaddrinfo ${code} n8n.cabinet.test`), { code });
};

describe('a failed call in plain words, the recorded message behind it', () => {
  it.each([
    [
      'a refused connection',
      async () => deliver({ url: `http://127.0.0.1:${await closedPort()}/webhook/a` }),
    ],
    [
      'a connection closed without an answer',
      async () => deliver({ url: (await receiver((request) => request.socket.destroy())).origin }),
    ],
    [
      'an answer that never comes',
      async () => deliver({ url: (await receiver(() => {})).origin, timeoutMs: 300 }),
    ],
    [
      'a domain name that does not exist',
      () => deliver({ url: 'https://n8n.cabinet.test/', resolve: failingResolver('ENOTFOUND') }),
    ],
    [
      'a name server that does not answer',
      () => deliver({ url: 'https://n8n.cabinet.test/', resolve: failingResolver('EAI_AGAIN') }),
    ],
    [
      'https to a server that speaks http',
      async () => deliver({ url: `https://127.0.0.1:${(await receiver()).port}/` }),
    ],
    ['a private address', async () => deliver({ url: (await receiver()).origin, allowPrivate: false })],
    ['an address that is no URL', () => deliver({ url: 'file:///etc/passwd' })],
  ])('%s', async (what, call) => {
    const outcome = await call();

    const wording = plainWording(outcome.message);

    expect(outcome.ok).toBe(false);
    expect({ what, ...wording }).toEqual({ what, text: EXPECTED[what], detail: outcome.message });
  });

  it.each([
    [404, PLAIN_FAILURES.notFound],
    [403, PLAIN_FAILURES.forbidden],
    [500, PLAIN_FAILURES.serverError],
    [302, PLAIN_FAILURES.redirect],
    [503, PLAIN_FAILURES.httpError('503')],
  ])('an answer %i from n8n', async (status, text) => {
    const n8n = await receiver((_request, response) => {
      response.writeHead(status, { location: 'https://ailleurs.test/' });
      response.end();
    });

    const outcome = await deliver({ url: n8n.origin });

    expect(plainWording(outcome.message)).toEqual({ text, detail: outcome.message });
  });

  it('names the connection failures a call records without a receiver to cause them', () => {
    const { connectionError, connection } = MESSAGES.execution;

    expect(plainWording(connectionError(`${connection.unreachable} (EHOSTUNREACH)`)).text).toBe(
      PLAIN_FAILURES.unreachable,
    );
    expect(plainWording(connectionError(`${connection.tls} (CERT_HAS_EXPIRED)`)).text).toBe(
      PLAIN_FAILURES.tls,
    );
    expect(plainWording(connectionError(connection.noAddress)).text).toBe(PLAIN_FAILURES.hostNotFound);
    expect(plainWording(connectionError('ECONNABORTED')).text).toBe(PLAIN_FAILURES.unknownConnection);
    expect(plainWording(connectionError(connection.unknown)).text).toBe(PLAIN_FAILURES.unknownConnection);
  });

  it("keeps what frames the failure: a connection test's label, a pause's reason (its 404 hint said plainly)", () => {
    const refused = MESSAGES.execution.connectionError(
      `${MESSAGES.execution.connection.refused} (ECONNREFUSED)`,
    );
    const paused = `${HEALTH_MESSAGES.pauseReason(5, MESSAGES.execution.notFoundInactive)}. ${HEALTH_MESSAGES.inactiveHint}`;

    expect(plainWording(HEALTH_MESSAGES.testRecorded(refused))).toEqual({
      text: `Test de connexion : ${PLAIN_FAILURES.refused}`,
      detail: HEALTH_MESSAGES.testRecorded(refused),
    });
    expect(plainWording(paused)).toEqual({
      text: `Suspendue après 5 échecs consécutifs — dernier message : ${PLAIN_FAILURES.notFound}`,
      detail: paused,
    });
  });

  it('leaves a message that is no failure as it is, with no details', () => {
    for (const message of [
      MESSAGES.workflow.workflowExecuted,
      MESSAGES.execution.cancelledUnscheduled,
      HEALTH_MESSAGES.testRecorded(HEALTH_MESSAGES.testSucceeded(200)),
    ]) {
      expect(plainWording(message)).toEqual({ text: message, detail: null });
    }
  });
});

/** What a lawyer reads for each failure above: the sentences of the product, as written. */
const EXPECTED: Record<string, string> = {
  'a refused connection':
    "Le serveur n8n n'a pas répondu (connexion refusée). Vérifiez l'adresse ou que n8n est démarré.",
  'a connection closed without an answer': PLAIN_FAILURES.closed,
  'an answer that never comes': PLAIN_FAILURES.timeout,
  'a domain name that does not exist': PLAIN_FAILURES.hostNotFound,
  'a name server that does not answer': PLAIN_FAILURES.dnsUnavailable,
  'https to a server that speaks http': PLAIN_FAILURES.tls,
  'a private address': PLAIN_FAILURES.privateAddress,
  'an address that is no URL': PLAIN_FAILURES.invalidUrl,
};
