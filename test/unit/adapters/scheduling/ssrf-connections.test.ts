import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  type DeliveryRequest,
  deliverWebhook,
} from '../../../../functions/adapters/scheduling/webhook-delivery';
import { generateWebhookSecret } from '../../../../functions/adapters/scheduling/webhook-signature';
import { MESSAGES } from '../../../../shared/messages';
import { receiversClosedAfterEach, scriptedResolver } from '../../../support/receiver';

/**
 * The guard seen from the network: a real listener on the refused address must see no connection
 * at all, and the same URL with private addresses allowed must reach it (so that "no connection"
 * means refused, not unreachable).
 */

const SECRET = generateWebhookSecret();
/** Public by every rule, yet assigned to no one: nothing real receives what is sent there. */
const UNASSIGNED_PUBLIC_V6 = '3000::1';

const receiver = receiversClosedAfterEach();

function deliver(overrides: Partial<DeliveryRequest> & Pick<DeliveryRequest, 'url' | 'allowPrivate'>) {
  return deliverWebhook({
    body: { trigger: 'manual' },
    messageId: `run_${randomUUID()}`,
    secret: SECRET,
    timeoutMs: 2_000,
    ...overrides,
  });
}

/** Every spelling of a local address that the listener on '::' (every local address) would accept. */
const LOCAL_SPELLINGS: readonly {
  readonly what: string;
  readonly host: string;
  readonly resolvesTo?: string[];
}[] = [
  { what: 'loopback', host: '127.0.0.1' },
  { what: 'loopback in decimal', host: '2130706433' },
  { what: 'loopback in octal', host: '0177.0.0.1' },
  { what: 'loopback in hex', host: '0x7f.1' },
  { what: 'loopback shortened', host: '127.1' },
  { what: 'this network', host: '0.0.0.0' },
  { what: 'IPv6 loopback', host: '[::1]' },
  { what: 'IPv6 unspecified', host: '[::]' },
  { what: 'IPv4-mapped loopback', host: '[::ffff:7f00:1]' },
  { what: 'IPv4-mapped loopback in full', host: '[0:0:0:0:0:ffff:127.0.0.1]' },
  { what: 'localhost through the system resolver', host: 'localhost' },
  {
    what: 'a name resolving to public then loopback',
    host: 'n8n.test',
    resolvesTo: ['93.184.215.14', '127.0.0.1'],
  },
];

describe('the SSRF guard against a real listener', () => {
  it.each(LOCAL_SPELLINGS)('never connects to $what', async ({ host, resolvesTo }) => {
    const listener = await receiver(undefined, { host: '::' });
    const resolver = resolvesTo ? scriptedResolver(resolvesTo) : undefined;

    const outcome = await deliver({
      url: `http://${host}:${listener.port}/webhook/a`,
      allowPrivate: false,
      resolve: resolver?.resolve,
    });

    expect(outcome).toMatchObject({
      ok: false,
      failure: 'private-address',
      retryable: false,
      message: MESSAGES.execution.privateAddress,
    });
    expect(listener.connections()).toBe(0);
  });

  it.each(LOCAL_SPELLINGS)(
    'reaches the listener through $what when private addresses are allowed',
    async ({ host, resolvesTo }) => {
      const listener = await receiver(undefined, { host: '::' });
      // The last answer is the loopback one: the call goes to the first address that accepts.
      const resolver = resolvesTo ? scriptedResolver(resolvesTo.slice(-1)) : undefined;

      const outcome = await deliver({
        url: `http://${host}:${listener.port}/webhook/a`,
        allowPrivate: true,
        resolve: resolver?.resolve,
      });

      expect(outcome.ok).toBe(true);
      expect(listener.calls).toHaveLength(1);
    },
  );

  it('connects only to the address it checked when the name rebinds to loopback (no second lookup)', async () => {
    const listener = await receiver(undefined, { host: '::' });
    // First answer: public, so the check passes. Any later answer: the listener on loopback.
    const resolver = scriptedResolver([UNASSIGNED_PUBLIC_V6], ['127.0.0.1']);

    const outcome = await deliver({
      url: `http://rebind.test:${listener.port}/webhook/a`,
      allowPrivate: false,
      resolve: resolver.resolve,
      timeoutMs: 300,
    });

    expect(resolver.calls).toEqual(['rebind.test']);
    expect(listener.connections()).toBe(0);
    expect(outcome.ok).toBe(false);
    expect(['timeout', 'network']).toContain(outcome.failure);
  });

  it('sends the call to the checked address, not to a later DNS answer', async () => {
    const rebound = await receiver(undefined, { host: '127.0.0.1' });
    const checked = await receiver(undefined, { host: '127.0.0.2', port: rebound.port });
    const resolver = scriptedResolver(['127.0.0.2'], ['127.0.0.1']);

    const outcome = await deliver({
      url: `http://rebind.test:${rebound.port}/webhook/a`,
      allowPrivate: true,
      resolve: resolver.resolve,
    });

    expect(outcome.ok).toBe(true);
    expect(resolver.calls).toEqual(['rebind.test']);
    expect(checked.calls).toHaveLength(1);
    expect(checked.calls[0]?.headers.host).toBe(`rebind.test:${rebound.port}`);
    expect(rebound.connections()).toBe(0);
  });

  it.each([301, 302, 303, 307, 308])('does not follow a %s redirect to a private address', async (status) => {
    const target = await receiver();
    const redirecting = await receiver((_request, response) => {
      response.writeHead(status, { location: `${target.origin}/admin` });
      response.end();
    });

    const outcome = await deliver({ url: `${redirecting.origin}/webhook/a`, allowPrivate: true });

    expect(outcome).toMatchObject({
      ok: false,
      httpStatus: status,
      retryable: false,
      failure: 'redirect',
      message: "Erreur d'exécution: redirection refusée",
    });
    expect(redirecting.calls).toHaveLength(1);
    expect(target.connections()).toBe(0);
  });
});
