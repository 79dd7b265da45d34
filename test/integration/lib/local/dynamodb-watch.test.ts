import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { Logger } from '../../../../functions/domain/core/ports';
import {
  DYNAMODB_RESTARTS,
  startDynamoDbLocal,
  superviseDynamoDbLocal,
} from '../../../../lib/local/dynamodb-local';
import { freePort } from '../../../../lib/local/free-port';
import { type LocalRuntime, startLocalRuntime } from '../../../../lib/local/runtime';
import { MESSAGES } from '../../../../shared/messages';
import { eventually } from '../../../support/scheduling';

/** A logger that keeps what `npm start` would print. */
class ConsoleLines implements Logger {
  readonly lines: string[] = [];
  // Like `npm start` without LOG_LEVEL=debug: debug lines are not printed.
  debug = (_message: string) => undefined;
  info = (message: string) => void this.lines.push(message);
  warn = this.info;
  error = this.info;
}

describe('npm start watches DynamoDB Local', () => {
  const directories: string[] = [];
  let runtime: LocalRuntime | undefined;

  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  const temporary = (label: string) => {
    const directory = mkdtempSync(join(tmpdir(), label));
    directories.push(directory);
    return directory;
  };

  it('answers 503 while DynamoDB Local is killed, restarts it with the data kept and says so', {
    timeout: 180_000,
  }, async () => {
    // Arrange: the whole local runtime, and a folder saved before the crash.
    const site = temporary('site-');
    writeFileSync(
      join(site, 'index.html'),
      '<!doctype html><html><head><title>test</title></head><body></body></html>',
    );
    const console = new ConsoleLines();
    const lost: Error[] = [];
    runtime = await startLocalRuntime({
      port: await freePort(),
      dataDirectory: temporary('data-'),
      siteDirectory: site,
      requireSecondFactor: false,
      demoReceiverPort: await freePort(),
      stripePort: await freePort(),
      logger: console,
      onDatabaseLost: (error) => lost.push(error),
    });
    const api = async (path: string, init: RequestInit = {}) => {
      const reply = await fetch(`${runtime?.url}${path}`, {
        ...init,
        headers: { 'content-type': 'application/json', ...init.headers },
      });
      return { status: reply.status, retryAfter: reply.headers.get('retry-after'), body: await reply.json() };
    };
    const signIn = await api('/api/verify-license', {
      method: 'POST',
      body: JSON.stringify({ licenseKey: runtime.keys.adminLicenseKey }),
    });
    const authorization = { authorization: `Bearer ${signIn.body.token}` };
    const created = await api('/api/folders', {
      method: 'POST',
      headers: authorization,
      body: JSON.stringify({ name: 'Succession Lemaire' }),
    });
    expect(created.status).toBe(201);
    // The folder is in the list (its index entry written) before the crash: what is lost after that is ours.
    await eventually(
      async () =>
        (await api('/api/folders', { headers: authorization })).body.folders?.some(
          (folder: { id: string }) => folder.id === created.body.id,
        ) === true,
      'dossier listé avant la panne',
    );
    const killed = runtime.databasePid();

    // Act: the Java process killed as a crash would end it.
    process.kill(killed as number, 'SIGKILL');
    const during: Awaited<ReturnType<typeof api>>[] = [];
    await eventually(
      async () => {
        during.push(await api('/api/folders', { headers: authorization }));
        return console.lines.some((line) => line.startsWith('DynamoDB Local redémarré'));
      },
      'DynamoDB Local redémarré',
      90_000,
    );
    const after = await api('/api/folders', { headers: authorization });

    // Assert: no 500 meanwhile, a 503 that says to retry, and the folder still there.
    expect(during.map((reply) => reply.status).filter((status) => status !== 200 && status !== 503)).toEqual(
      [],
    );
    const unavailable = during.find((reply) => reply.status === 503);
    expect(unavailable?.body).toEqual({ error: MESSAGES.request.storeUnavailable });
    expect(unavailable?.retryAfter).toMatch(/^\d+$/);
    expect(
      console.lines.some((line) => line.startsWith("DynamoDB Local s'est arrêté (signal SIGKILL)")),
    ).toBe(true);
    expect(runtime.databasePid()).not.toBe(killed);
    expect(after.status).toBe(200);
    expect(after.body.folders).toEqual([
      expect.objectContaining({ id: created.body.id, name: 'Succession Lemaire' }),
    ]);
    expect(lost).toEqual([]);
  });

  it(`gives up with a clear message after ${DYNAMODB_RESTARTS} failed restarts`, {
    timeout: 180_000,
  }, async () => {
    // Arrange: each restart tries a port another process holds, so each fails as a real start would.
    const squatter: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const takenPort = (squatter.address() as { port: number }).port;
    const announced: string[] = [];
    let gaveUp: Error | undefined;
    const dynamo = await superviseDynamoDbLocal(temporary('data-'), {
      announce: (line) => announced.push(line),
      gaveUp: (error) => {
        gaveUp = error;
      },
      start: () => startDynamoDbLocal({ port: takenPort }),
    });

    try {
      // Act
      process.kill(dynamo.pid as number, 'SIGKILL');
      await eventually(() => gaveUp !== undefined, 'abandon après les redémarrages', 150_000);

      // Assert
      expect(
        announced.filter((line) => line.startsWith('Redémarrage de DynamoDB Local en échec')),
      ).toHaveLength(DYNAMODB_RESTARTS);
      expect(gaveUp?.message).toMatch(
        new RegExp(
          `n'a pas pu être redémarré après ${DYNAMODB_RESTARTS} essais : arrêt de l'environnement local`,
        ),
      );
      expect(gaveUp?.message).toContain('relancez `npm start`');
    } finally {
      await dynamo.stop();
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
