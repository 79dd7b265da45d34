import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from '../lib/local/free-port';
import { childrenNamed } from './cpu-time';
import { type SteadyArrivalsFigures, type SteadyArrivalsOptions, steadyArrivals } from './steady-arrivals';

/**
 * The API nearly idle: the local runtime started as `npm start` starts it (bin/local.ts, a fresh
 * data directory, a free port on loopback), 1,000 workflows created through the API, then the list
 * route and verify-license at 5 requests a second started evenly (the admin's workflows page in
 * Chromium is the admin-page part's, `admin-page.ts`). What carries to AWS (calls, units, CPU) is measured apart (`api-calls.ts`): a latency at
 * a load here measures the emulator on this machine.
 */

/** One route nearly idle: requests started at a steady few a second, none waiting for another. */
export interface NearlyIdleFigures extends SteadyArrivalsFigures {
  readonly route: string;
  readonly replyBytes: number;
}

export interface ApiBenchFigures {
  readonly workflows: number;
  readonly runs: readonly NearlyIdleFigures[];
}

const root = fileURLToPath(new URL('..', import.meta.url));

export async function startRuntime(log: (line: string) => void) {
  if (!existsSync(join(root, 'web/dist/index.html'))) {
    log('  construction du site (npm run build:web)...');
    const build = spawnSync('npm', ['run', 'build:web'], { cwd: root, stdio: 'ignore' });
    if (build.status !== 0) throw new Error('La construction du site a échoué');
  }
  const port = await freePort();
  const dataDirectory = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: root,
    // The admin seeds through the API with its key alone: the second factor is not what is measured.
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDirectory, REQUIRE_SECOND_FACTOR: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const keys = await new Promise<{ admin: string; lawyer: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Le runtime local n'a pas démarré:\n${output}`)),
      180_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const admin = /Admin licence key: (\S+)/.exec(output)?.[1];
      const lawyer = /Lawyer licence key: (\S+)/.exec(output)?.[1];
      if (admin && lawyer) {
        clearTimeout(timer);
        resolve({ admin, lawyer });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Le runtime local s'est arrêté (code ${code}):\n${output}`));
    });
  });
  // Output keeps coming (one line per scheduler tick): read and dropped, so the pipe never fills.
  child.stdout?.resume();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    keys,
    pids: { runtime: child.pid, emulator: childrenNamed(child.pid, 'java')[0] },
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGINT');
      await exited;
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

export async function call(baseUrl: string, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return { json: JSON.parse(text) as Record<string, unknown>, bytes: Buffer.byteLength(text) };
}

export async function signIn(baseUrl: string, licenseKey: string): Promise<string> {
  const { json } = await call(baseUrl, 'POST', '/api/verify-license', { licenseKey });
  if (typeof json.token !== 'string') throw new Error('Connexion refusée dans le banc');
  return json.token;
}

/** 1,000 workflows of one lawyer, created through the API as an admin does (10 at a time). */
async function seedWorkflows(baseUrl: string, admin: string, count: number) {
  const email = `avocat.banc.${Date.now()}@example.com`;
  await call(
    baseUrl,
    'PUT',
    '/api/lawyers',
    {
      firstName: 'Camille',
      lastName: 'Martin',
      email,
      phoneNumber: '0142000000',
      officeName: 'Cabinet Martin',
    },
    admin,
  );
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) {
        next += 1;
        await call(
          baseUrl,
          'POST',
          '/api/workflows',
          {
            name: `Relance dossier client ${next}`,
            description: 'Relance les clients pour les pièces manquantes de leur dossier',
            webhookUrl: 'https://n8n.example.com/webhook/client-reminder',
            lawyerEmail: email,
            type: 'client_reminder',
          },
          admin,
        );
      }
    }),
  );
}

/**
 * `lawyers` lawyers (created when `from` is 0) and automations `from + 1` to `to` spread over them
 * in turn, created through the API as an admin does (10 requests at a time): every write the
 * product makes with them (counters, search entries) is made.
 */
export async function seedDirectory(
  baseUrl: string,
  admin: string,
  options: { readonly lawyers: number; readonly from: number; readonly to: number },
) {
  const emails = Array.from(
    { length: options.lawyers },
    (_, index) => `avocat.banc.${index + 1}@example.com`,
  );
  if (options.from === 0) {
    for (const [index, email] of emails.entries()) {
      await call(
        baseUrl,
        'PUT',
        '/api/lawyers',
        {
          firstName: 'Camille',
          lastName: `Martin ${index + 1}`,
          email,
          phoneNumber: '0142000000',
          officeName: `Cabinet Martin ${index + 1}`,
        },
        admin,
      );
    }
  }
  let next = options.from;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < options.to) {
        next += 1;
        const number = next;
        await call(
          baseUrl,
          'POST',
          '/api/workflows',
          {
            name: `Relance dossier client ${number}`,
            description: 'Relance les clients pour les pièces manquantes de leur dossier',
            webhookUrl: 'https://n8n.example.com/webhook/client-reminder',
            lawyerEmail: emails[number % emails.length],
            type: 'client_reminder',
          },
          admin,
        );
      }
    }),
  );
}

/** A few requests a second, evenly spread, for a minute: the minute tick of the runtime included. */
const NEARLY_IDLE_RATE = 5;
const NEARLY_IDLE_SECONDS = 60;

export interface ApiBenchOptions {
  readonly workflows: number;
  readonly log: (line: string) => void;
}

export async function runApiBench(options: ApiBenchOptions): Promise<ApiBenchFigures> {
  options.log('API : démarrage du runtime local (comme npm start)...');
  const runtime = await startRuntime(options.log);
  try {
    const admin = await signIn(runtime.baseUrl, runtime.keys.admin);
    options.log(`  ${options.workflows} automatisations créées par l'API...`);
    await seedWorkflows(runtime.baseUrl, admin, options.workflows);
    const list = await call(runtime.baseUrl, 'GET', '/api/workflows', undefined, admin);
    const verified = await call(runtime.baseUrl, 'POST', '/api/verify-license', {
      licenseKey: runtime.keys.lawyer,
    });
    const routes: (Omit<SteadyArrivalsOptions, 'rate' | 'seconds'> & {
      readonly route: string;
      readonly replyBytes: number;
    })[] = [
      {
        route: 'GET /api/workflows',
        url: `${runtime.baseUrl}/api/workflows`,
        method: 'GET',
        headers: { authorization: `Bearer ${admin}` },
        replyBytes: list.bytes,
      },
      {
        route: 'POST /api/verify-license',
        url: `${runtime.baseUrl}/api/verify-license`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ licenseKey: runtime.keys.lawyer }),
        replyBytes: verified.bytes,
      },
    ];
    const runs: NearlyIdleFigures[] = [];
    for (const { route, replyBytes, ...request } of routes) {
      options.log(`  ${route} à ${NEARLY_IDLE_RATE} requêtes/s pendant ${NEARLY_IDLE_SECONDS} s...`);
      // A first minute not counted: the emulator compiles its hot code in its first seconds under load.
      await steadyArrivals({ ...request, rate: NEARLY_IDLE_RATE, seconds: 20 });
      const figures = await steadyArrivals({
        ...request,
        rate: NEARLY_IDLE_RATE,
        seconds: NEARLY_IDLE_SECONDS,
      });
      runs.push({ ...figures, route, replyBytes });
    }
    return { workflows: options.workflows, runs };
  } finally {
    await runtime.stop();
  }
}
