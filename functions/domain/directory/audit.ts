import { randomUUID } from 'node:crypto';

import type { AuditEntry } from '../../../shared/schemas/audit';
import type { Clock } from '../core/ports';
import type { SessionContext } from '../identity/sessions';
import type { AuditLog, AuditRecord } from './ports';

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
  // A lawyer's licence key shown in clear to an admin, and replaced by another.
  | 'lawyer.license-key.reveal'
  | 'lawyer.license-key.change'
  // 'Exporter mes données', by the firm or an admin.
  | 'lawyer.export'
  | 'workflow.create'
  | 'workflow.update'
  | 'workflow.delete'
  // A switch is recorded by what it came to, so the trail says which way it went. (Entries
  // written before say 'workflow.toggle-active' or 'workflow.toggle-scheduling'.)
  | 'workflow.activate'
  | 'workflow.deactivate'
  | 'workflow.schedule'
  | 'workflow.unschedule'
  // 'Reprendre' after the automatic pause, and the health settings of /admin/settings.
  | 'workflow.resume'
  | 'health.settings.update'
  | 'folder.create'
  | 'folder.update'
  | 'folder.delete'
  | 'license.second-factor.reset'
  // The admin made a lawyer's licence a notary's one, or back: recorded by what it came to.
  | 'license.role.notary'
  | 'license.role.lawyer'
  // The admin sent a lawyer's licence key again to the licence's address.
  | 'license.email.resend';

/** What an action was done to: the resource's reference and, for people reading the trail, its label. */
export interface AuditTarget {
  readonly ref: string;
  readonly label: string;
}

/**
 * Targets name a resource by its id and by what a person knows it as at the time: a lawyer's name
 * and e-mail, a workflow's or folder's name. The label stays in the entry, so an admin can still
 * tell who or what it was once it is deleted (the trail's purpose); it is kept as long as the trail
 * (5 years, TTL), like the contractual records it documents.
 */
export const auditTarget = {
  lawyer: (lawyer: { id: string; firstName: string; lastName: string; email: string }): AuditTarget => ({
    ref: `lawyer:${lawyer.id}`,
    label: `${lawyer.firstName} ${lawyer.lastName} (${lawyer.email})`,
  }),
  workflow: (workflow: { id: string; name: string }): AuditTarget => ({
    ref: `workflow:${workflow.id}`,
    label: workflow.name,
  }),
  folder: (folder: { id: string; name: string }): AuditTarget => ({
    ref: `folder:${folder.id}`,
    label: folder.name,
  }),
  /** The health settings, named by what they now say. */
  healthSettings: (settings: {
    pauseAfterFailures: number;
    alertEmail: string | null;
    dailyDigest: boolean;
  }): AuditTarget => ({
    ref: 'settings:health',
    label: `suspension après ${settings.pauseAfterFailures} échecs, alertes à ${settings.alertEmail ?? "l'adresse du déploiement"}, résumé quotidien ${settings.dailyDigest ? 'activé' : 'désactivé'}`,
  }),
  /** A licence nobody holds as a lawyer (an admin licence): named by its type only. */
  license: (type: string): AuditTarget => ({ ref: `license:${type}`, label: `licence ${type}` }),
};

/** Who acts: an admin's session, or the product itself (`RETENTION_ACTOR`). */
export type AuditActor = Pick<SessionContext, 'email'>;

/** The actor of the purges the retention job makes on its own (spec §9). */
export const RETENTION_ACTOR: AuditActor = { email: 'rétention automatique' };

/**
 * The audit trail: who (the admin's e-mail, or 'admin' when his licence has none), what, when and
 * to what (reference and label). Only admin and retention actions are recorded.
 */
export class AuditTrail {
  constructor(
    private readonly entries: AuditLog,
    private readonly clock: Clock,
  ) {}

  /** Records an action on its own (after the change it describes, or before a reveal). */
  async record(actor: AuditActor, action: AuditAction, target: AuditTarget): Promise<void> {
    await this.entries.record(this.entry(actor, action, target));
  }

  /**
   * The record of an action, to write in the same transaction as the change itself (a directory
   * store's joined write, or `auditEntry` for another area's store).
   */
  joinedWrite(actor: AuditActor, action: AuditAction, target: AuditTarget): { auditEntry: AuditRecord } {
    return { auditEntry: this.entry(actor, action, target) };
  }

  /** One page of the trail, newest first. */
  async page(limit: number, cursor?: string): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    return this.entries.page(limit, cursor);
  }

  private entry(actor: AuditActor, action: AuditAction, target: AuditTarget): AuditRecord {
    return {
      id: randomUUID(),
      at: this.clock.now().toISOString(),
      actorEmail: actor.email || 'admin',
      action,
      target: target.ref,
      targetLabel: target.label,
    };
  }
}
