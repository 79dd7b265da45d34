import * as z from 'zod';

import { EntityId, IsoTimestamp } from './common';

/**
 * 'Exporter mes données' (POST /api/data-exports): a lawyer or notary exports his own firm (no
 * body needed); an admin names the lawyer.
 */
export const DataExportRequest = z.object({ lawyerId: EntityId.optional() });
export type DataExportRequest = z.infer<typeof DataExportRequest>;

/** The firm whose export is asked about (GET /api/data-exports/current): an admin names it. */
export const DataExportQuery = DataExportRequest;
export type DataExportQuery = z.input<typeof DataExportQuery>;

/**
 * A firm's export: 'building' in the background, then 'ready' with a download link valid one hour
 * (then 'expired'), or 'failed'.
 */
export const DataExport = z.object({
  id: z.string(),
  lawyerId: EntityId,
  status: z.enum(['building', 'ready', 'failed', 'expired']),
  requestedAt: IsoTimestamp,
  readyAt: IsoTimestamp.nullable(),
  /** When the download link stops working (one hour after the export was ready). */
  expiresAt: IsoTimestamp.nullable(),
  sizeBytes: z.number().int().nullable(),
  fileName: z.string(),
  /** Only while 'ready'. */
  downloadUrl: z.string().nullable(),
});
export type DataExport = z.infer<typeof DataExport>;

/** The firm's latest export, if any (GET /api/data-exports/current). */
export const CurrentDataExport = z.object({ export: DataExport.nullable() });
export type CurrentDataExport = z.infer<typeof CurrentDataExport>;
