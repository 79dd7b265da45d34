import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** What the receiver's process tells the bench, one message per event. */
type ReceiverNews =
  | { readonly kind: 'listening'; readonly port: number }
  | {
      readonly kind: 'started';
      readonly at: number;
      readonly workflowId: string;
      readonly dueAt: string | null;
    }
  | { readonly kind: 'finished' };

/**
 * The n8n of the scheduling bench: answers 200 after a fixed delay and notes when each call
 * started. It runs in a process of its own, as a firm's n8n runs on another machine: in the bench's
 * process, its parsing of a request would wait for whatever the worker does on the event loop
 * meanwhile, and the delay would start late by as much, counted against the worker.
 */
export async function startBenchReceiver(delayMs: number) {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [String(delayMs)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const starts: { at: number; workflowId: string; dueAt: string | null }[] = [];
  let inProgress = 0;
  let maxConcurrent = 0;
  let finished = 0;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Le récepteur du banc s'est arrêté (code ${code})`)));
    child.on('message', (news: ReceiverNews) => {
      if (news.kind === 'listening') resolve(news.port);
      else if (news.kind === 'started') {
        starts.push({ at: news.at, workflowId: news.workflowId, dueAt: news.dueAt });
        inProgress += 1;
        maxConcurrent = Math.max(maxConcurrent, inProgress);
      } else {
        inProgress -= 1;
        finished += 1;
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    starts,
    get finished() {
      return finished;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** The receiver's own process. */
function serve(delayMs: number) {
  const tell = (news: ReceiverNews) => process.send?.(news);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        workflowId: string;
        dueAt?: string | null;
      };
      tell({ kind: 'started', at, workflowId: body.workflowId, dueAt: body.dueAt ?? null });
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
        tell({ kind: 'finished' });
      }, delayMs);
    });
  });
  server.listen(0, '127.0.0.1', () =>
    tell({ kind: 'listening', port: (server.address() as AddressInfo).port }),
  );
  // The bench's end (or its death) ends this process too.
  process.on('disconnect', () => process.exit(0));
}

if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) serve(Number(process.argv[2]));
