import { randomUUID } from 'node:crypto';

import type { z } from 'zod';

import { MESSAGES } from '../../../shared/messages';
import type { Folder, FolderInput } from '../../../shared/schemas/folder';
import { NotFoundError } from '../core/errors';
import type { Clock } from '../core/ports';
import type { SessionContext } from '../identity/sessions';
import { type AuditTrail, auditTarget } from './audit';
import { FolderNotFoundError, type FolderRecord, type Folders, type Workflows } from './ports';

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

  /** One page of folders, newest first. */
  async list(limit: number, cursor?: string): Promise<{ folders: Folder[]; nextCursor: string | null }> {
    const page = await this.folders.page(limit, cursor);
    return { folders: page.items.map(toFolderView), nextCursor: page.nextCursor };
  }

  async create(input: FolderFields, session: SessionContext): Promise<Folder> {
    const now = this.clock.now().toISOString();
    const record: FolderRecord = {
      id: randomUUID(),
      name: input.name,
      description: input.description,
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

  /** Spec §4: deleting a folder keeps its workflows; they only lose the association. */
  async delete(id: string, session: SessionContext): Promise<void> {
    const folder = await this.folders.getById(id);
    if (!folder) throw new NotFoundError(MESSAGES.folder.notFound);
    await this.workflows.detachFromFolder(id, this.clock.now().toISOString());
    await this.folders.delete(id);
    await this.audit.record(session, 'folder.delete', auditTarget.folder(folder));
  }
}
