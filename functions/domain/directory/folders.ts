import { randomUUID } from 'node:crypto';

import type { z } from 'zod';

import { MESSAGES } from '../../../shared/messages';
import type { Folder, FolderInput } from '../../../shared/schemas/folder';
import { ConflictError, NotFoundError } from '../core/errors';
import type { Clock, ReplyKey } from '../core/ports';
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
  readonly audit: Pick<AuditTrail, 'joinedWrite'>;
  readonly clock: Clock;
}

/** Client folders (spec §2 'Clients & Dossiers', §7 folders calls); admin only. */
export class FolderService {
  private readonly folders: Folders;
  private readonly workflows: Pick<Workflows, 'detachFromFolder'>;
  private readonly audit: Pick<AuditTrail, 'joinedWrite'>;
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

  /** With an Idempotency-Key (`replyKey`), its reply is kept with the folder: a retry gets it back. */
  async create(input: FolderFields, session: SessionContext, replyKey?: ReplyKey | null): Promise<Folder> {
    const now = this.clock.now().toISOString();
    const record: FolderRecord = {
      id: randomUUID(),
      name: input.name,
      description: input.description,
      counts: { total: 0, active: 0, scheduled: 0 },
      createdAt: now,
      updatedAt: now,
    };
    const view = toFolderView(record);
    await this.folders.create(record, [
      this.audit.joinedWrite(session, 'folder.create', auditTarget.folder(record)),
      ...(replyKey ? [{ firstReply: { ...replyKey, body: view, at: now } }] : []),
    ]);
    return view;
  }

  async update(id: string, input: FolderFields, session: SessionContext): Promise<Folder> {
    try {
      const updated = await this.folders.update(id, input, this.clock.now().toISOString(), (next) => [
        this.audit.joinedWrite(session, 'folder.update', auditTarget.folder(next)),
      ]);
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
        await this.folders.delete(folder, [
          this.audit.joinedWrite(session, 'folder.delete', auditTarget.folder(folder)),
        ]);
        break;
      } catch (error) {
        if (!(error instanceof FolderNotEmptyError)) throw error;
        if (attempt >= 3) throw new ConflictError(MESSAGES.request.conflict, { cause: error });
      }
    }
  }
}
