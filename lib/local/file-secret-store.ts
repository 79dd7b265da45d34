import { randomUUID } from 'node:crypto';
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { z } from 'zod';

import type { LawyerSecretStore } from '../../functions/domain/directory/ports';
import { type LawyerSecrets, LawyerSecrets as LawyerSecretsSchema } from '../../shared/schemas/lawyer';

const SecretsFile = z.record(z.string(), LawyerSecretsSchema);
type SecretsFile = z.infer<typeof SecretsFile>;

/**
 * The local stand-in of the lawyer secrets in Secrets Manager: one JSON file readable by its owner
 * only (0600), keyed by lawyer id. Every change rewrites the file atomically (a temporary file in
 * the same directory, then a rename), one change at a time, so a crash never leaves half a file.
 */
export class FileLawyerSecretStore implements LawyerSecretStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly path: string) {}

  async put(lawyerId: string, secrets: LawyerSecrets): Promise<void> {
    const parsed = LawyerSecretsSchema.parse(secrets);
    await this.change((all) => {
      all[lawyerId] = parsed;
    });
  }

  async get(lawyerId: string): Promise<LawyerSecrets | null> {
    await this.queue.catch(() => undefined);
    return (await this.read())[lawyerId] ?? null;
  }

  async delete(lawyerId: string): Promise<void> {
    await this.change((all) => {
      delete all[lawyerId];
    });
  }

  /** Applies a change after the ones already queued; a failed change does not block the next. */
  private change(apply: (all: SecretsFile) => void): Promise<void> {
    const next = this.queue
      .catch(() => undefined)
      .then(async () => {
        const all = await this.read();
        apply(all);
        await this.write(all);
      });
    this.queue = next;
    return next;
  }

  private async read(): Promise<SecretsFile> {
    try {
      return SecretsFile.parse(JSON.parse(await readFile(this.path, 'utf8')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
  }

  private async write(all: SecretsFile): Promise<void> {
    const temporary = join(dirname(this.path), `.${basename(this.path)}.${randomUUID()}.tmp`);
    try {
      await writeFile(temporary, JSON.stringify(all, null, 2), { mode: 0o600 });
      // The mode of writeFile is filtered by the umask; make sure it is exactly owner-only.
      await chmod(temporary, 0o600);
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
