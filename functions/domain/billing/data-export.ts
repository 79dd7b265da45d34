import { randomUUID } from 'node:crypto';

import { EXPORT_MESSAGES } from '../../../shared/report-messages';
import type { DataExport } from '../../../shared/schemas/data-export';
import { ConflictError, InvalidInputError, NotFoundError } from '../core/errors';
import { type Metrics, noMetrics, REPORT_METRIC } from '../core/metrics';
import type { Clock, Logger } from '../core/ports';
import type { LawyerRecord, WorkflowRecord } from '../directory/ports';
import type { SessionContext } from '../identity/sessions';
import { EXPORT_README, EXPORT_TABLES, type ExportRow, type FirmExportData } from './export-files';

/** How long a ready export's download link works. */
export const EXPORT_LINK_SECONDS = 60 * 60;
/** The days of run history an export holds (the history's own retention). */
export const EXPORT_HISTORY_DAYS = 30;
/**
 * How long one export may hold its firm's turn: past it (a builder that died), another may start.
 * The builder's own time-out is shorter (`lib/constructs/data-exports.ts`).
 */
export const EXPORT_LEASE_MS = 20 * 60_000;

/** An export as kept. */
export interface ExportRecord {
  readonly id: string;
  readonly lawyerId: string;
  readonly requestedBy: string;
  readonly status: 'building' | 'ready' | 'failed';
  readonly requestedAt: string;
  readonly readyAt: string | null;
  readonly sizeBytes: number | null;
  readonly objectKey: string;
  readonly fileName: string;
}

/** Where exports and each firm's turn are kept (`functions/data/billing/data-exports.ts`). */
export interface ExportRecords {
  /** Takes the firm's turn for this export unless another holds it unexpired: false then. */
  claim(lawyerId: string, exportId: string, now: Date, leaseMs: number): Promise<boolean>;
  /** Gives the turn back (only this export's). */
  release(lawyerId: string, exportId: string): Promise<void>;
  put(record: ExportRecord): Promise<void>;
  get(exportId: string): Promise<ExportRecord | null>;
  /** The firm's latest export, if any. */
  latestOf(lawyerId: string): Promise<ExportRecord | null>;
  finish(exportId: string, changes: Pick<ExportRecord, 'status' | 'readyAt' | 'sizeBytes'>): Promise<void>;
}

/** Where the ZIP goes: an S3 object under a lifecycle rule, or a file under DATA_DIR. */
export interface ExportFiles {
  /** A writer of the archive `objectKey`, its bytes streamed (S3 multipart, a file locally). */
  open(objectKey: string): Promise<ExportFileWriter>;
  /** A link downloading the archive as `fileName`, valid `expiresInSeconds`. */
  downloadUrl(objectKey: string, fileName: string, expiresInSeconds: number): Promise<string>;
}

export interface ExportFileWriter {
  write(chunk: Buffer): Promise<void>;
  /** The file is complete and stored. */
  finish(): Promise<void>;
  /** Nothing is kept of it. */
  abort(): Promise<void>;
}

/** Builds the archive from the firm's data: a ZIP of JSON and CSV files (`adapters/billing`). */
export type ArchiveBuilder = (
  file: ExportFileWriter,
  data: FirmExportData,
  readme: string,
) => Promise<{ readonly sizeBytes: number }>;

/** Starts an export's build in the background (asynchronous invocation, or a task locally). */
export interface ExportJobs {
  start(exportId: string): Promise<void>;
}

/** Reads a firm's data for its export (`functions/data/portability/firm-export.ts`). */
export interface FirmDataSource {
  data(lawyer: LawyerRecord, historySince: string, now: Date): Promise<FirmExportData>;
}

export interface DataExportDependencies {
  readonly records: ExportRecords;
  readonly files: ExportFiles;
  readonly jobs: ExportJobs;
  readonly source: FirmDataSource;
  readonly buildArchive: ArchiveBuilder;
  /** A lawyer by id, and the profile of a signed-in member (null when he has none). */
  readonly lawyers: {
    getById(lawyerId: string): Promise<LawyerRecord | null>;
    profileOf(session: SessionContext): Promise<LawyerRecord | null>;
  };
  /** Records the export in the audit trail. */
  readonly audit: (session: SessionContext, lawyer: LawyerRecord) => Promise<void>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics?: Metrics;
}

const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 60) || 'cabinet';

/**
 * 'Exporter mes données' (spec, privacy section 7: portability): a firm's data as a ZIP of JSON
 * and CSV files with a README, built in the background (the data may pass what one Lambda reply
 * carries), offered as a download link valid one hour. A lawyer or notary exports his own firm, an
 * admin any; the route asks the second factor again; the request is audited; one export at a time
 * per firm (a lease, so that a builder that died does not block the firm for good).
 */
export class DataExports {
  constructor(private readonly deps: DataExportDependencies) {}

  async request(session: SessionContext, lawyerId: string | undefined): Promise<DataExport> {
    const lawyer = await this.firmOf(session, lawyerId);
    const now = this.deps.clock.now();
    const id = randomUUID();
    if (!(await this.deps.records.claim(lawyer.id, id, now, EXPORT_LEASE_MS)))
      throw new ConflictError(EXPORT_MESSAGES.alreadyRunning);
    const day = now.toISOString().slice(0, 10);
    const record: ExportRecord = {
      id,
      lawyerId: lawyer.id,
      requestedBy: session.email ?? session.role,
      status: 'building',
      requestedAt: now.toISOString(),
      readyAt: null,
      sizeBytes: null,
      objectKey: `exports/${lawyer.id}/${id}.zip`,
      fileName: `export-${slug(lawyer.officeName ?? `${lawyer.firstName} ${lawyer.lastName}`)}-${day}.zip`,
    };
    try {
      await this.deps.records.put(record);
      await this.deps.audit(session, lawyer);
      await this.deps.jobs.start(id);
    } catch (error) {
      await this.deps.records.release(lawyer.id, id);
      throw error;
    }
    this.deps.logger.info('Export des données demandé', {
      exportId: id,
      lawyerId: lawyer.id,
      role: session.role,
    });
    return this.view(record, now);
  }

  /** The firm's latest export, with its download link while it is valid. */
  async current(session: SessionContext, lawyerId: string | undefined): Promise<DataExport | null> {
    const lawyer = await this.firmOf(session, lawyerId);
    const record = await this.deps.records.latestOf(lawyer.id);
    return record ? this.view(record, this.deps.clock.now()) : null;
  }

  /**
   * Builds an export (the background job): reads the firm's data page by page and streams the ZIP
   * to its file; marks it ready or failed, and gives the firm's turn back either way.
   */
  async build(exportId: string): Promise<void> {
    const record = await this.deps.records.get(exportId);
    if (record?.status !== 'building') {
      this.deps.logger.warn('Export introuvable ou déjà traité', { exportId });
      return;
    }
    const metrics = this.deps.metrics ?? noMetrics;
    const started = this.deps.clock.now();
    let file: ExportFileWriter | undefined;
    try {
      const lawyer = await this.deps.lawyers.getById(record.lawyerId);
      if (!lawyer) throw new NotFoundError(EXPORT_MESSAGES.notFound);
      const since = new Date(started.getTime() - EXPORT_HISTORY_DAYS * 86_400_000).toISOString();
      const data = await this.deps.source.data(lawyer, since, started);
      file = await this.deps.files.open(record.objectKey);
      const { sizeBytes } = await this.deps.buildArchive(file, data, EXPORT_README);
      await file.finish();
      const readyAt = this.deps.clock.now();
      await this.deps.records.finish(exportId, {
        status: 'ready',
        readyAt: readyAt.toISOString(),
        sizeBytes,
      });
      metrics.count(REPORT_METRIC.exportBuilt);
      metrics.duration(REPORT_METRIC.exportBuilt, readyAt.getTime() - started.getTime());
      this.deps.logger.info('Export des données prêt', { exportId, sizeBytes });
    } catch (error) {
      await file?.abort().catch(() => undefined);
      await this.deps.records.finish(exportId, { status: 'failed', readyAt: null, sizeBytes: null });
      metrics.count(REPORT_METRIC.exportFailed);
      this.deps.logger.error('Export des données en échec', {
        exportId,
        errorName: error instanceof Error ? error.name : 'inconnu',
        errorMessage: error instanceof Error ? error.message : undefined,
      });
      throw error;
    } finally {
      await this.deps.records.release(record.lawyerId, exportId);
    }
  }

  /** The firm asked about: a member's own (whatever id he sends), the one an admin names. */
  private async firmOf(session: SessionContext, lawyerId: string | undefined): Promise<LawyerRecord> {
    if (session.role === 'admin') {
      if (!lawyerId) throw new InvalidInputError('lawyerId', EXPORT_MESSAGES.lawyerRequired);
      const lawyer = await this.deps.lawyers.getById(lawyerId);
      if (!lawyer) throw new NotFoundError(EXPORT_MESSAGES.lawyerNotFound);
      return lawyer;
    }
    const own = await this.deps.lawyers.profileOf(session);
    if (!own) throw new NotFoundError(EXPORT_MESSAGES.noProfile);
    return own;
  }

  private async view(record: ExportRecord, now: Date): Promise<DataExport> {
    const expiresAt = record.readyAt ? Date.parse(record.readyAt) + EXPORT_LINK_SECONDS * 1000 : null;
    const expired = record.status === 'ready' && expiresAt !== null && expiresAt <= now.getTime();
    const downloadUrl =
      record.status === 'ready' && !expired && expiresAt !== null
        ? await this.deps.files.downloadUrl(
            record.objectKey,
            record.fileName,
            Math.max(1, Math.floor((expiresAt - now.getTime()) / 1000)),
          )
        : null;
    return {
      id: record.id,
      lawyerId: record.lawyerId,
      status: expired ? 'expired' : record.status,
      requestedAt: record.requestedAt,
      readyAt: record.readyAt,
      expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      sizeBytes: record.sizeBytes,
      fileName: record.fileName,
      downloadUrl,
    };
  }
}

/** A row of one of the export's tables. */
export type { ExportRow, FirmExportData };
/** The workflows of a firm, as the export reads them. */
export type ExportedWorkflow = WorkflowRecord;
export { EXPORT_TABLES };
