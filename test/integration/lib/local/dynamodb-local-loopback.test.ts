import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

import { describe, expect, inject, it } from 'vitest';

/**
 * Issue 14 §9: DynamoDB Local has no authentication, so it must not listen beyond this machine.
 * The suite's own instance is started by the same `startDynamoDbLocal` as `npm start`.
 */

/** Whether a TCP connection to host:port opens ('open') or is refused ('refused'). */
function tryConnect(host: string, port: number): Promise<'open' | 'refused'> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(5_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve('open');
    });
    const refused = () => {
      socket.destroy();
      resolve('refused');
    };
    socket.once('error', refused);
    socket.once('timeout', refused);
  });
}

/** This machine's addresses other than the loopback (link-local IPv6 left out: it needs a scope). */
const outsideAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((entry) => entry !== undefined && !entry.internal)
  .filter((entry) => !(entry?.family === 'IPv6' && entry.address.startsWith('fe80')))
  .map((entry) => entry?.address ?? '');

describe('DynamoDB Local listens on the loopback only', () => {
  const port = Number(new URL(inject('dynamoEndpoint')).port);

  it('answers on 127.0.0.1', async () => {
    expect(await tryConnect('127.0.0.1', port)).toBe('open');
  });

  it.skipIf(outsideAddresses.length === 0)(
    `is not reachable on this machine's other addresses (${outsideAddresses.join(', ') || 'none: this machine has no address besides the loopback, nothing to test'})`,
    async () => {
      for (const address of outsideAddresses) expect(await tryConnect(address, port)).toBe('refused');
    },
  );
});
