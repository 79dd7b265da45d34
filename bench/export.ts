import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { lawyerKey, workflowKey } from '../functions/data/directory/keys';
import { completionReportKey, executionSortKey } from '../functions/data/scheduling/keys';
import { EXPORT_HISTORY_DAYS } from '../functions/domain/billing/data-export';
import { RecordedMetrics } from '../functions/domain/core/metrics';
import type { AppDependencies } from '../functions/runtime/dependencies';
import { systemClock } from '../functions/runtime/dependencies';
import { dataExportsOf } from '../functions/runtime/services/data-exports';
import { inProcessExportJobs, LocalExportFiles } from '../lib/local/data-exports';
import { parseCsv } from '../test/support/csv';
import { batchWrite, benchTable, benchWorkflow, dropTable, itemsOf } from './scheduler';

export interface ExportFigures {
  readonly workflows: number;
  readonly busyWorkflows: number;
  readonly calls: number;
  readonly reports: number;
  readonly loadSeconds: number;
  readonly exportSeconds: number;
  readonly sizeBytes: number;
  /** The process's resident memory at its highest during the build, and before it. */
  readonly peakRssMb: number;
  readonly baseRssMb: number;
  readonly unzipOk: boolean;
  /** Every CSV of the ZIP parsed (RFC 4180), with as many records as its JSON twin and one field per header. */
  readonly csvFiles: number;
  readonly csvRecords: number;
  readonly csvOk: boolean;
}

/** Each `<name>.csv` of the ZIP parsed and compared with `<name>.json`: as many records, each as wide as the headers. */
function checkCsvFiles(path: string): { files: number; records: number; ok: boolean } {
  const read = (name: string) =>
    execFileSync('unzip', ['-p', path, name], { maxBuffer: 4 * 1024 ** 3 }).toString('utf8');
  const names = execFileSync('unzip', ['-Z1', path]).toString().split('\n').filter(Boolean);
  let records = 0;
  let ok = true;
  const csvNames = names.filter((name) => name.endsWith('.csv'));
  for (const name of csvNames) {
    const [headers = [], ...rows] = parseCsv(read(name));
    const json = JSON.parse(read(name.replace(/\.csv$/, '.json'))) as unknown[];
    records += rows.length;
    ok &&= rows.length === json.length && rows.every((row) => row.length === headers.length);
  }
  return { files: csvNames.length, records, ok };
}

/** One call a minute on each busy workflow for 30 days (ten minutes short, to stay inside the window), each with its report. */
const HISTORY_MINUTES = EXPORT_HISTORY_DAYS * 24 * 60 - 10;

/** The history calls in the export of a firm with `busy` automations run every minute. */
export const historyCallsOf = (busy: number) => busy * HISTORY_MINUTES;

const quietLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * The export of a large firm: `workflows` automations, `busy` of them run every minute for 30 days
 * with a completion report each, written straight into DynamoDB Local; then the real builder
 * (`DataExports.build`, the ZIP writer, the local files) exports it, timed, its ZIP checked with
 * `unzip -t` and the process's memory sampled while it runs.
 */
export async function runExportBench(options: {
  readonly endpoint: string;
  readonly workflows?: number;
  readonly busy?: number;
  readonly log: (line: string) => void;
}): Promise<ExportFigures> {
  const total = options.workflows ?? 1_000;
  const busy = options.busy ?? 10;
  const table = await benchTable(options.endpoint);
  const directory = mkdtempSync(join(tmpdir(), 'bench-export-'));
  try {
    const now = new Date();
    const lawyerId = crypto.randomUUID();
    const email = 'cabinet.export@example.com';
    const lawyer = {
      ...lawyerKey(lawyerId),
      entity: 'Lawyer',
      id: lawyerId,
      firstName: 'Camille',
      lastName: 'Martin',
      email,
      mainEmail: email,
      emailSignature: null,
      reminderFrequency: 7,
      phoneNumber: '0142000000',
      officeName: 'Cabinet Martin',
      licenseKeyHash: null,
      licenseKeyCiphertext: null,
      hasGooglePassword: true,
      hasGoogleCredentials: true,
      createdAt: new Date(now.getTime() - 60 * 86_400_000).toISOString(),
      updatedAt: now.toISOString(),
    };
    const workflows = Array.from({ length: total }, () => benchWorkflow({ lawyerEmail: email }));
    const loadStart = performance.now();
    await batchWrite(table, [lawyer, ...workflows.flatMap(itemsOf)]);

    const minutes = HISTORY_MINUTES;
    let calls = 0;
    for (const workflow of workflows.slice(0, busy)) {
      const step = 10_000;
      for (let start = 0; start < minutes; start += step) {
        const items: Record<string, unknown>[] = [];
        for (let minute = start; minute < Math.min(minutes, start + step); minute++) {
          const startedAt = new Date(now.getTime() - (minute + 1) * 60_000).toISOString();
          const id = crypto.randomUUID();
          const runId = `${workflow.id}:${startedAt}`;
          items.push(
            {
              PK: workflowKey(workflow.id).PK,
              SK: executionSortKey(startedAt, id),
              entity: 'Execution',
              id,
              workflowId: workflow.id,
              dispatchId: runId,
              trigger: 'schedule',
              startedAt,
              durationMs: 180,
              httpStatus: 200,
              outcome: 'success',
              message: 'Workflow exécuté avec succès',
              attempt: 1,
            },
            {
              ...completionReportKey(workflow.id, runId),
              entity: 'CompletionReport',
              workflowId: workflow.id,
              runId,
              trigger: 'schedule',
              runStartedAt: startedAt,
              status: minute % 50 === 0 ? 'failure' : 'success',
              summary: '3 e-mails classés, 2 pièces renommées',
              items: 5,
              error: minute % 50 === 0 ? 'Google Drive : accès refusé au dossier « Dossier Clients »' : null,
              reportedAt: startedAt,
            },
          );
        }
        await batchWrite(table, items);
        calls += items.length / 2;
      }
      options.log(`  chargé ${calls} appels et comptes rendus`);
    }
    const loadSeconds = (performance.now() - loadStart) / 1000;

    const jobs = inProcessExportJobs(quietLogger);
    const deps = {
      table,
      clock: systemClock,
      logger: quietLogger,
      metrics: new RecordedMetrics(),
      exports: { files: new LocalExportFiles(directory, () => 'http://localhost:3000'), jobs },
    } as unknown as AppDependencies;
    const exports = dataExportsOf(deps);
    jobs.bind((job) => exports.build(job.exportId));
    const baseRss = process.memoryUsage().rss;
    let peakRss = baseRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 100);
    const exportStart = performance.now();
    const session = { role: 'admin', email: 'admin@example.com' } as Parameters<typeof exports.request>[0];
    const requested = await exports.request(session, lawyerId);
    await jobs.idle();
    const exportSeconds = (performance.now() - exportStart) / 1000;
    clearInterval(sampler);
    const ready = await exports.current(session, lawyerId);
    if (ready?.status !== 'ready' || !ready.downloadUrl)
      throw new Error(`Export non prêt : ${ready?.status}`);
    const path = join(directory, `exports/${lawyerId}/${requested.id}.zip`);
    const unzipOk = execFileSync('unzip', ['-tq', path]).toString().includes('No errors detected');
    const csv = checkCsvFiles(path);
    return {
      workflows: total,
      busyWorkflows: busy,
      calls,
      reports: calls,
      loadSeconds,
      exportSeconds,
      sizeBytes: ready.sizeBytes ?? 0,
      peakRssMb: Math.round(peakRss / 1024 / 1024),
      baseRssMb: Math.round(baseRss / 1024 / 1024),
      unzipOk,
      csvFiles: csv.files,
      csvRecords: csv.records,
      csvOk: csv.ok,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
    await dropTable(table);
  }
}
