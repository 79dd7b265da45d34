import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type {} from 'vitest';
import type { TestProject } from 'vitest/node';

import { freePort } from '../../lib/local/free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminLicenseKey: string;
    lawyerLicenseKey: string;
    notaryLicenseKey: string;
    /** Where the runtime writes its e-mails (`.eml`), as `npm start` does under `.data/outbox`. */
    outboxDirectory: string;
  }
}

/** A local runtime started as `npm start` does, for a browser suite. */
export interface StartedRuntime {
  readonly baseUrl: string;
  readonly keys: { readonly admin: string; readonly lawyer: string; readonly notary: string };
  readonly outboxDirectory: string;
  /** Everything the runtime printed so far (its banner first). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the local runtime exactly as `npm start` does (bin/local.ts, the built SPA) on a free
 * port with a fresh data directory, and reads the printed licence keys from its output.
 */
export async function startRuntime(env: Record<string, string> = {}): Promise<StartedRuntime> {
  const port = await freePort();
  const dataDirectory = mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDirectory, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const keys = await new Promise<{ admin: string; lawyer: string; notary: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Le runtime local n'a pas démarré:\n${output}`)),
      120_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const admin = /Admin licence key: (\S+)/.exec(output)?.[1];
      const lawyer = /Lawyer licence key: (\S+)/.exec(output)?.[1];
      const notary = /Notary licence key: (\S+)/.exec(output)?.[1];
      if (admin && lawyer && notary) {
        clearTimeout(timer);
        resolve({ admin, lawyer, notary });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Le runtime local s'est arrêté (code ${code}):\n${output}`));
    });
  });
  return {
    baseUrl: `http://localhost:${port}`,
    keys,
    outboxDirectory: join(dataDirectory, 'outbox'),
    output: () => output,
    stop: async () => {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      const code = await exited;
      rmSync(dataDirectory, { recursive: true, force: true });
      if (code !== 0)
        throw new Error(`Le runtime local ne s'est pas arrêté proprement (code ${code}):\n${output}`);
    },
  };
}

/**
 * The runtime every browser suite shares. Its suites sign in with the printed admin key and are not
 * about the second factor, so it runs with REQUIRE_SECOND_FACTOR=false; the second-factor suite
 * starts its own runtime with the factor required, as `npm start` does.
 */
export default async function setup(project: TestProject) {
  const runtime = await startRuntime({
    REQUIRE_SECOND_FACTOR: 'false',
    ALERT_EMAIL: 'astreinte@cabinet.example',
  });
  project.provide('baseUrl', runtime.baseUrl);
  project.provide('adminLicenseKey', runtime.keys.admin);
  project.provide('lawyerLicenseKey', runtime.keys.lawyer);
  project.provide('notaryLicenseKey', runtime.keys.notary);
  project.provide('outboxDirectory', runtime.outboxDirectory);
  return runtime.stop;
}
