import { createServer, type Server } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startDynamoDbLocal } from '../../../../lib/local/dynamodb-local';
import { freePort } from '../../../../lib/local/free-port';

describe('starting DynamoDB Local', () => {
  let squatter: Server;
  let takenPort: number;

  beforeAll(async () => {
    // Another process holding the port, as in the race between choosing a port and binding it.
    squatter = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(0, '0.0.0.0', resolve));
    const address = squatter.address();
    if (typeof address !== 'object' || !address) throw new Error('pas de port');
    takenPort = address.port;
  });
  afterAll(async () => {
    await new Promise((resolve) => squatter.close(resolve));
  });

  it('names a taken port as the cause, not Java, when the port was given', { timeout: 120_000 }, async () => {
    const start = startDynamoDbLocal({ port: takenPort });

    await expect(start).rejects.toThrow(/n'a pas pu ouvrir son port : il est déjà utilisé/);
    await expect(start).rejects.not.toThrow(/Java/);
  });

  it('draws another port and starts when the one it chose was taken before Java bound it', {
    timeout: 180_000,
  }, async () => {
    const drawn: number[] = [];
    // First draw: the squatter's port, as if another process bound it right after we chose it.
    const choosePort = async () => {
      const port = drawn.length === 0 ? takenPort : await freePort();
      drawn.push(port);
      return port;
    };

    const dynamo = await startDynamoDbLocal({ choosePort });
    try {
      expect(drawn[0]).toBe(takenPort);
      expect(drawn.length).toBeGreaterThanOrEqual(2);
      expect(dynamo.endpoint).not.toContain(`:${takenPort}`);
      expect(dynamo.endpoint).toBe(`http://127.0.0.1:${drawn.at(-1)}`);
    } finally {
      await dynamo.stop();
    }
  });
});
