import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

import type { ExportFiles, ExportFileWriter, ExportJobs } from '../../functions/domain/billing/data-export';
import type { Logger } from '../../functions/domain/core/ports';
import type { ExportJob } from '../../functions/handlers/billing/data-export-builder';

/** Where the local runtime serves the exports: `/exports/<key>?expires=…&name=…&signature=…`. */
export const LOCAL_EXPORTS_PATH = '/exports/';
/** Files older than this are removed when a new export starts (S3's lifecycle rule in AWS). */
const KEEP_MS = 24 * 60 * 60_000;

/**
 * The exports bucket of the local runtime: files under `DATA_DIR/exports`, offered by signed links
 * (HMAC and expiry, as a pre-signed S3 URL is) that the runtime's HTTP server serves.
 */
export class LocalExportFiles implements ExportFiles {
  private readonly root: string;
  constructor(
    directory: string,
    private readonly publicUrl: () => string,
    private readonly key: Buffer = randomBytes(32),
  ) {
    this.root = resolve(directory);
  }

  async open(objectKey: string): Promise<ExportFileWriter> {
    const path = this.pathOf(objectKey);
    if (!path) throw new Error(`Clé d'export invalide : ${objectKey}`);
    await this.removeOld();
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const partial = `${path}.part`;
    const stream = createWriteStream(partial, { mode: 0o600 });
    return {
      write: async (chunk) => {
        if (!stream.write(chunk)) await once(stream, 'drain');
      },
      finish: async () => {
        stream.end();
        await once(stream, 'close');
        await rename(partial, path);
      },
      abort: async () => {
        stream.destroy();
        await rm(partial, { force: true });
      },
    };
  }

  async downloadUrl(objectKey: string, fileName: string, expiresInSeconds: number): Promise<string> {
    const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
    const query = new URLSearchParams({
      expires: String(expires),
      name: fileName,
      signature: this.sign(objectKey, expires, fileName),
    });
    return `${this.publicUrl()}${LOCAL_EXPORTS_PATH}${objectKey}?${query.toString()}`;
  }

  /** The file a download link names, if its signature holds and it has not expired; else null. */
  resolveDownload(url: URL, now: Date = new Date()): { path: string; fileName: string } | null {
    if (!url.pathname.startsWith(LOCAL_EXPORTS_PATH)) return null;
    const objectKey = decodeURIComponent(url.pathname.slice(LOCAL_EXPORTS_PATH.length));
    const expires = Number(url.searchParams.get('expires'));
    const fileName = url.searchParams.get('name') ?? '';
    const given = Buffer.from(url.searchParams.get('signature') ?? '');
    const expected = Buffer.from(this.sign(objectKey, expires, fileName));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (!Number.isFinite(expires) || expires * 1000 < now.getTime()) return null;
    const path = this.pathOf(objectKey);
    return path && existsSync(path) ? { path, fileName } : null;
  }

  private sign(objectKey: string, expires: number, fileName: string): string {
    return createHmac('sha256', this.key).update(`${objectKey}\n${expires}\n${fileName}`).digest('base64url');
  }

  /** The file of a key, inside the exports folder; null for a key that would leave it. */
  private pathOf(objectKey: string): string | null {
    const path = resolve(join(this.root, objectKey));
    return path.startsWith(this.root + sep) ? path : null;
  }

  private async removeOld(): Promise<void> {
    const now = Date.now();
    const visit = async (directory: string): Promise<void> => {
      for (const entry of await readdir(directory, { withFileTypes: true }).catch(() => [])) {
        const path = join(directory, entry.name);
        if (entry.isDirectory()) await visit(path);
        else if (now - (await stat(path)).mtimeMs > KEEP_MS) await rm(path, { force: true });
      }
    };
    await visit(this.root);
  }
}

/**
 * The builder started as a background task of this process, as Lambda's asynchronous invocation
 * starts it in AWS: the request answers at once; a failure is logged (the export says 'failed').
 */
export function inProcessExportJobs(logger: Logger): ExportJobs & {
  bind(builder: (job: ExportJob) => Promise<void>): void;
  /** Resolves once every build started so far has ended (tests, a clean stop). */
  idle(): Promise<void>;
} {
  let builder: ((job: ExportJob) => Promise<void>) | undefined;
  const running = new Set<Promise<void>>();
  return {
    bind(bound) {
      builder = bound;
    },
    async start(exportId) {
      const build = builder;
      if (!build) throw new Error('Constructeur des exports non branché');
      const task = new Promise<void>((resolveTask) => setImmediate(resolveTask))
        .then(() => build({ exportId }))
        .catch((error: unknown) => {
          logger.error('Export des données en échec', {
            exportId,
            errorName: error instanceof Error ? error.name : 'inconnu',
          });
        })
        .finally(() => running.delete(task));
      running.add(task);
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
