import { randomUUID } from 'node:crypto';

import type { z } from 'zod';

import { MESSAGES } from '../../../shared/messages';
import type { Folder, FolderInput } from '../../../shared/schemas/folder';
import { ConflictError, NotFoundError } from '../core/errors';
import type { Clock } from '../core/ports';
import type { SessionContext } from '../identity/sessions';
import { type AuditTrail, auditTarget } from './audit';
import {
  FolderNotEmptyError,
  FolderNotFoundError,
  type FolderRecord,
  type Folders,
  type Workflows,
} from './ports';
import { searchTermsOf } from './search-terms';

type FolderFields = z.output<typeof FolderInput>;

/** A folder as the API shows it. */
export const toFolderView = (record: FolderRecord): Folder => ({ ...record });

export interface FolderServiceDependencies {
  readonly folders: Folders;
  readonly workflows: Pick<Workflows, 'detachFromFolder'>;
  readonly audit: Pick<AuditTrail, 'record'>;
  readonly clock: Clock;
}

/** Client folders (spec §2 'Clients & Dossiers', §7 folders calls); admin only. */
export class FolderService {
  private readonly folders: Folders;
  private readonly workflows: Pick<Workflows, 'detachFromFolder'>;
  private readonly audit: Pick<AuditTrail, 'record'>;
  private readonly clock: Clock;

  constructor(deps: FolderServiceDependencies) {
    this.folders = deps.folders;
    this.workflows = deps.workflows;
    this.audit = deps.audit;
    this.clock = deps.clock;
  }

  /** One page of folders, newest first; with a search, those whose name it finds (spec §2). */
  async list(query: {
    readonly limit: number;
    readonly cursor?: string | undefined;
    readonly q?: string | undefined;
  }): Promise<{ folders: Folder[]; nextCursor: string | null }> {
    const terms = query.q?.trim() ? searchTermsOf(query.q) : null;
    // A search of nothing searchable ('***') finds nothing.
    if (terms && terms.words.length === 0) return { folders: [], nextCursor: null };
    const page = await this.folders.page(query.limit, query.cursor, terms);
    return { folders: page.items.map(toFolderView), nextCursor: page.nextCursor };
  }

  async create(input: FolderFields, session: SessionContext): Promise<Folder> {
    const now = this.clock.now().toISOString();
    const record: FolderRecord = {
      id: randomUUID(),
      name: input.name,
      description: input.description,
      counts: { total: 0, active: 0, scheduled: 0 },
      createdAt: now,
      updatedAt: now,
    };
    await this.folders.create(record);
    await this.audit.record(session, 'folder.create', auditTarget.folder(record));
    return toFolderView(record);
  }

  async update(id: string, input: FolderFields, session: SessionContext): Promise<Folder> {
    try {
      const updated = await this.folders.update(id, input, this.clock.now().toISOString());
      await this.audit.record(session, 'folder.update', auditTarget.folder(updated));
      return toFolderView(updated);
    } catch (error) {
      if (error instanceof FolderNotFoundError)
        throw new NotFoundError(MESSAGES.folder.notFound, { cause: error });
      throw error;
    }
  }

  /**
   * Spec §4: deleting a folder keeps its workflows; they only lose the association. One filed in it
   * while it is emptied is detached in turn; a folder that keeps being filed into is a 409.
   */
  async delete(id: string, session: SessionContext): Promise<void> {
    const folder = await this.folders.getById(id);
    if (!folder) throw new NotFoundError(MESSAGES.folder.notFound);
    for (let attempt = 1; ; attempt++) {
      await this.workflows.detachFromFolder(id, this.clock.now().toISOString());
      try {
        await this.folders.delete(folder);
        break;
      } catch (error) {
        if (!(error instanceof FolderNotEmptyError)) throw error;
        if (attempt >= 3) throw new ConflictError(MESSAGES.request.conflict, { cause: error });
      }
    }
    await this.audit.record(session, 'folder.delete', auditTarget.folder(folder));
  }
}
