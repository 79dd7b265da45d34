import { randomUUID } from 'node:crypto';

import { MESSAGES } from '../../shared/messages';
import type { AuditEntry } from '../../shared/schemas/audit';
import { type AuditRecord, AuditRepository, InvalidAuditCursorError } from '../data/audit';
import type { Table } from '../data/table';
import type { Clock } from '../runtime/dependencies';
import { InvalidInputError } from './errors';
import type { SessionContext } from './sessions';

/**
 * Everything the audit trail records: each admin mutation, each reveal of a lawyer's secrets, and
 * the purge of a lawyer's data 30 days after his subscription ended (spec §9).
 */
export type AuditAction =
  | 'lawyer.create'
  | 'lawyer.update'
  | 'lawyer.delete'
  | 'lawyer.purge'
  | 'lawyer.secrets.reveal'
  | 'workflow.create'
  | 'workflow.update'
  | 'workflow.delete'
  | 'workflow.toggle-active'
  | 'workflow.toggle-scheduling'
  | 'folder.create'
  | 'folder.update'
  | 'folder.delete';

/**
 * Targets name a resource by its id only. A lawyer's id is an opaque UUID: once he is deleted
 * nothing else in the product links it to a person, so the trail keeps no personal data of his.
 */
export const auditTarget = {
  lawyer: (id: string) => `lawyer:${id}`,
  workflow: (id: string) => `workflow:${id}`,
  folder: (id: string) => `folder:${id}`,
};

/** Who acts: an admin's session, or the product itself (`RETENTION_ACTOR`). */
export type AuditActor = Pick<SessionContext, 'email'>;

/** The actor of the purges the retention job makes on its own (spec §9). */
export const RETENTION_ACTOR: AuditActor = { email: 'rétention automatique' };

/**
 * The audit trail: who (the admin's e-mail, or 'admin' when his licence has none), what, when and
 * to what. Only admin and retention actions are recorded, so the trail never holds a lawyer's e-mail.
 */
export class AuditTrail {
  private readonly entries: AuditRepository;

  constructor(
    table: Table,
    private readonly clock: Clock,
  ) {
    this.entries = new AuditRepository(table);
  }

  /** Records an action on its own (after the change it describes, or before a reveal). */
  async record(actor: AuditActor, action: AuditAction, target: string): Promise<void> {
    await this.entries.record(this.entry(actor, action, target));
  }

  /** The record of an action, to write in the same transaction as the change itself. */
  transactItem(actor: AuditActor, action: AuditAction, target: string) {
    return this.entries.transactItem(this.entry(actor, action, target));
  }

  /** One page of the trail, newest first. */
  async page(limit: number, cursor?: string): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    try {
      return await this.entries.page(limit, cursor);
    } catch (error) {
      if (error instanceof InvalidAuditCursorError)
        throw new InvalidInputError('cursor', MESSAGES.request.invalid, { cause: error });
      throw error;
    }
  }

  private entry(actor: AuditActor, action: AuditAction, target: string): AuditRecord {
    return {
      id: randomUUID(),
      at: this.clock.now().toISOString(),
      actorEmail: actor.email || 'admin',
      action,
      target,
    };
  }
}
