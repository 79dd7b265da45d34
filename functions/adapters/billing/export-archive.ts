import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ExportFileWriter } from '../../domain/billing/data-export';
import {
  EXPORT_TABLES,
  type ExportRow,
  type ExportTable,
  type ExportValue,
  type FirmExportData,
} from '../../domain/billing/export-files';
import { ZipWriter } from './zip-writer';

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
export function csvField(value: ExportValue): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (values: readonly ExportValue[]) => `${values.map(csvField).join(',')}\r\n`;

/** Writes to a file stream, waiting for it to drain when it asks to. */
async function writeTo(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * The export's ZIP: each table as `<name>.json` then `<name>.csv`, then README.txt. A table's rows
 * are read once: while its JSON goes into the archive, its CSV is written to a temporary file
 * (the function's /tmp in Lambda), which goes into the archive right after. Memory holds a page of
 * rows and a few deflate buffers, whatever the firm's size.
 */
export async function buildExportArchive(
  file: ExportFileWriter,
  data: FirmExportData,
  readme: string,
  tables: readonly ExportTable[] = EXPORT_TABLES,
): Promise<{ readonly sizeBytes: number }> {
  const zip = new ZipWriter(file);
  const spool = await mkdtemp(join(tmpdir(), 'export-'));
  try {
    for (const table of tables) {
      const csvPath = join(spool, `${table.name}.csv`);
      const csv = createWriteStream(csvPath);
      // The BOM lets spreadsheet software read the accents as UTF-8.
      await writeTo(csv, `\uFEFF${csvLine(table.columns.map((column) => column.header))}`);
      await zip.addFile(`${table.name}.json`, jsonOf(table, data, csv));
      csv.end();
      await once(csv, 'close');
      await zip.addFile(`${table.name}.csv`, createReadStream(csvPath));
      await rm(csvPath);
    }
    await zip.addFile('README.txt', [readme]);
    return { sizeBytes: await zip.close() };
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

/** A table's JSON array, produced page by page, each row also written to its CSV. */
async function* jsonOf(
  table: ExportTable,
  data: FirmExportData,
  csv: NodeJS.WritableStream,
): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const page of table.rows(data)) {
    let chunk = '';
    let lines = '';
    for (const row of page) {
      chunk += `${first ? '\n' : ',\n'}${JSON.stringify(row)}`;
      first = false;
      lines += csvLine(table.columns.map((column) => (row as ExportRow)[column.key] ?? null));
    }
    await writeTo(csv, lines);
    yield chunk;
  }
  yield first ? ']\n' : '\n]\n';
}
