import { randomUUID } from 'node:crypto';

import { generateLicenseKey, maskLicenseKey } from '../../../shared/license-key';
import { MESSAGES } from '../../../shared/messages';
import type {
  LawyerLookupReply,
  NormalizedAdminLawyerSave,
  NormalizedLawyerSave,
} from '../../../shared/schemas/directory';
import type { GoogleCredentials, Lawyer, LawyerSecrets } from '../../../shared/schemas/lawyer';
import type { LicenseKeyVault } from '../../security/license-key-vault';
import {
  ConflictError,
  ExistingLawyerError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
} from '../core/errors';
import type { Clock, Logger, ReplyKey } from '../core/ports';
import { newLicenseRecord } from '../identity/licenses';
import type { LicenseRecord, Licenses, Sessions } from '../identity/ports';
import type { SessionContext } from '../identity/sessions';
import { type AuditActor, type AuditTrail, auditTarget } from './audit';
import { ownEmailsOf, ownProfileOf } from './members';
import {
  type JoinedWrite,
  type JoinedWritesOf,
  LawyerChangedError,
  LawyerConflictError,
  type LawyerRecord,
  type LawyerSecretStore,
  type Lawyers,
  type LicenseFactors,
  WorkflowNotFoundError,
  type Workflows,
} from './ports';
import { searchTermsOf } from './search-terms';

/** What writes a profile: the profiles, the workflows that follow a new e-mail, the secret store. */
export interface ProfileWriterDependencies {
  readonly lawyers: Pick<Lawyers, 'create' | 'update'>;
  readonly workflows: Pick<Workflows, 'listByOwner' | 'update' | 'getById' | 'reindexOwner'>;
  readonly secrets: LawyerSecretStore;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** What the lawyer service works with. */
export interface LawyerServiceDependencies extends ProfileWriterDependencies {
  readonly lawyers: Lawyers;
  readonly licenses: Pick<Licenses, 'getByHash' | 'getByAnyHash' | 'listByUserEmail' | 'delete'>;
  readonly workflows: Pick<
    Workflows,
    'listByOwner' | 'update' | 'getById' | 'reindexOwner' | 'deleteByOwner'
  >;
  readonly sessions: Pick<Sessions, 'deleteByLicense'>;
  readonly secondFactors: LicenseFactors;
  readonly audit: Pick<AuditTrail, 'record' | 'joinedWrite'>;
  readonly vault: LicenseKeyVault;
  /**
   * Ends at the payment provider the subscription of a licence about to be deleted with its
   * lawyer (`SubscriptionService.endSubscriptionOf`). Absent only where no licence can have one: the
   * retention purge (its licences are cancelled already) and tests without billing.
   */
  readonly endSubscription?: (license: LicenseRecord) => Promise<void>;
  /**
   * Asks the admin's second factor again when its last check is too old (a licence key is a
   * firm's credential: changing one is a sensitive action, as its reveal is).
   */
  readonly requireRecentSecondFactor: (session: SessionContext) => Promise<void>;
}

/** The secret fields of a save; a field left undefined keeps what is stored. */
export interface SecretChanges {
  readonly googlePassword?: string | null;
  readonly googleCredentials?: GoogleCredentials | null;
}

/** The secret changes a save asks for: only the fields that were sent. */
export function secretChangesOf(input: NormalizedLawyerSave): SecretChanges {
  return {
    ...(input.googlePasswordGiven ? { googlePassword: input.googlePassword } : {}),
    ...(input.googleCredentialsGiven ? { googleCredentials: input.googleCredentials } : {}),
  };
}

/**
 * A lawyer as the API shows him: his secrets only as "set or not", his licence key masked
 * (`NOTARY-••••1234`) unless `key` is 'clear' (his own profile, shown to himself).
 */
export function toLawyerView(
  record: LawyerRecord,
  vault: LicenseKeyVault,
  key: 'masked' | 'clear' = 'masked',
): Lawyer {
  const licenseKey = record.licenseKeyCiphertext ? vault.decrypt(record.licenseKeyCiphertext) : null;
  return {
    id: record.id,
    firstName: record.firstName,
    lastName: record.lastName,
    email: record.email,
    mainEmail: record.mainEmail,
    emailSignature: record.emailSignature,
    reminderFrequency: record.reminderFrequency,
    phoneNumber: record.phoneNumber,
    officeName: record.officeName,
    licenseKey: licenseKey !== null && key === 'masked' ? maskLicenseKey(licenseKey) : licenseKey,
    hasGooglePassword: record.hasGooglePassword,
    hasGoogleCredentials: record.hasGoogleCredentials,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    licenseEmailUndeliveredAt: record.licenseEmailUndeliveredAt ?? null,
  };
}

/** The profile fields of a save, on top of what the record keeps (id, key, dates, secret flags). */
export function withProfileFields(
  base: Pick<
    LawyerRecord,
    | 'id'
    | 'licenseKeyHash'
    | 'licenseKeyCiphertext'
    | 'hasGooglePassword'
    | 'hasGoogleCredentials'
    | 'createdAt'
    | 'licenseEmailUndeliveredAt'
  >,
  input: NormalizedLawyerSave,
  now: string,
): LawyerRecord {
  return {
    ...base,
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    mainEmail: input.mainEmail,
    emailSignature: input.emailSignature,
    reminderFrequency: input.reminderFrequency,
    phoneNumber: input.phoneNumber,
    officeName: input.officeName,
    updatedAt: now,
  };
}

/** OAuth credentials with neither a client id nor a client secret are no credentials. */
function meaningfulCredentials(credentials: GoogleCredentials | null | undefined): GoogleCredentials | null {
  return credentials && (credentials.clientId || credentials.clientSecret) ? credentials : null;
}

/**
 * Writes a lawyer's profile together with his secrets, for the admin's save and the lawyer's own.
 *
 * The secrets go to the secret store, the table keeps only whether they are set. The store is
 * written first: if the table write then fails, the secrets are put back as they were, so the
 * flags in the table and the store never disagree for long.
 */
export class LawyerProfileWriter {
  private readonly lawyers: ProfileWriterDependencies['lawyers'];
  private readonly workflows: ProfileWriterDependencies['workflows'];

  constructor(private readonly deps: ProfileWriterDependencies) {
    this.lawyers = deps.lawyers;
    this.workflows = deps.workflows;
  }

  /**
   * Creates (`previous` null) or updates a lawyer; `alsoWrite` joins the profile's transaction
   * (given the record as written when it names it: a save's kept reply).
   */
  async write(
    previous: LawyerRecord | null,
    next: LawyerRecord,
    changes: SecretChanges,
    alsoWrite: readonly JoinedWrite[] | JoinedWritesOf<LawyerRecord> = [],
  ): Promise<LawyerRecord> {
    const touched = changes.googlePassword !== undefined || changes.googleCredentials !== undefined;
    const stored =
      touched && previous && (previous.hasGooglePassword || previous.hasGoogleCredentials)
        ? await this.deps.secrets.get(previous.id)
        : null;
    let record = next;
    if (touched) {
      const secrets: LawyerSecrets = {
        googlePassword:
          changes.googlePassword !== undefined ? changes.googlePassword : (stored?.googlePassword ?? null),
        googleCredentials:
          changes.googleCredentials !== undefined
            ? meaningfulCredentials(changes.googleCredentials)
            : (stored?.googleCredentials ?? null),
      };
      record = {
        ...next,
        hasGooglePassword: secrets.googlePassword !== null,
        hasGoogleCredentials: secrets.googleCredentials !== null,
      };
      await this.storeSecrets(next.id, secrets);
    }
    const joined = typeof alsoWrite === 'function' ? alsoWrite(record) : alsoWrite;
    try {
      if (previous) await this.lawyers.update(previous, record, joined);
      else await this.lawyers.create(record, joined);
    } catch (error) {
      if (touched) await this.restoreSecrets(next.id, stored);
      if (error instanceof LawyerConflictError)
        throw new ConflictError(MESSAGES.lawyerSave.conflict, { cause: error });
      if (error instanceof LawyerChangedError)
        throw new ConflictError(MESSAGES.lawyerSave.changed, { cause: error });
      throw error;
    }
    if (previous && previous.email !== record.email) await this.moveWorkflows(previous.email, record.email);
    // His workflows are searched by his name too (a move above rewrote them with it).
    else if (!previous || previous.firstName !== record.firstName || previous.lastName !== record.lastName)
      await this.workflows.reindexOwner(record.email);
    return record;
  }

  private async storeSecrets(lawyerId: string, secrets: LawyerSecrets): Promise<void> {
    if (secrets.googlePassword === null && secrets.googleCredentials === null) {
      await this.deps.secrets.delete(lawyerId);
    } else {
      await this.deps.secrets.put(lawyerId, secrets);
    }
  }

  private async restoreSecrets(lawyerId: string, stored: LawyerSecrets | null): Promise<void> {
    try {
      await this.storeSecrets(lawyerId, stored ?? { googlePassword: null, googleCredentials: null });
    } catch (error) {
      this.deps.logger.error('Secrets de l’avocat non restaurés après un échec', {
        lawyerId,
        errorName: (error as Error).name,
      });
    }
  }

  /** Workflows are owned by e-mail (notary_email): they follow their lawyer to his new address. */
  private async moveWorkflows(from: string, to: string): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    for (const workflow of await this.workflows.listByOwner(from)) {
      try {
        await this.workflows.update(workflow.id, { lawyerEmail: to }, now);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        // Changed meanwhile: one more try on the fresh record; deleted meanwhile: nothing to move.
        const current = await this.workflows.getById(workflow.id);
        if (current?.lawyerEmail === from) await this.workflows.update(workflow.id, { lawyerEmail: to }, now);
      }
    }
  }
}

/**
 * The lawyers and notaries as the admin manages them (spec §2 /admin/lawyers and /admin/notaries,
 * §7 lawyers calls), and the §5 look-up.
 */
export class LawyerService {
  private readonly lawyers: Lawyers;
  private readonly licenses: LawyerServiceDependencies['licenses'];
  private readonly workflows: LawyerServiceDependencies['workflows'];
  private readonly sessions: LawyerServiceDependencies['sessions'];
  private readonly audit: LawyerServiceDependencies['audit'];
  private readonly writer: LawyerProfileWriter;

  constructor(private readonly deps: LawyerServiceDependencies) {
    this.lawyers = deps.lawyers;
    this.licenses = deps.licenses;
    this.workflows = deps.workflows;
    this.sessions = deps.sessions;
    this.audit = deps.audit;
    this.writer = new LawyerProfileWriter(deps);
  }

  /**
   * One page of lawyers, newest first, without secrets; with a search, those it finds by first
   * name, last name, e-mail or office name (spec §2).
   */
  async list(query: {
    readonly limit: number;
    readonly cursor?: string | undefined;
    readonly q?: string | undefined;
  }): Promise<{ lawyers: Lawyer[]; nextCursor: string | null }> {
    const terms = query.q?.trim() ? searchTermsOf(query.q) : null;
    // A search of nothing searchable ('***') finds nothing.
    if (terms && terms.words.length === 0) return { lawyers: [], nextCursor: null };
    const page = await this.lawyers.page(query.limit, query.cursor, terms);
    return {
      lawyers: page.items.map((record) => toLawyerView(record, this.deps.vault)),
      nextCursor: page.nextCursor,
    };
  }

  async get(id: string): Promise<Lawyer> {
    return toLawyerView(await this.existing(id), this.deps.vault);
  }

  /**
   * Spec §4 lawyer save: a lawyer with the same e-mail or the same licence key is updated, otherwise
   * one is created with the given licence key or a generated one. A key that is no licence yet
   * becomes an active 'lawyer' licence in the same transaction, so the new lawyer can sign in.
   * `createOnly` ('Nouvel avocat') never updates: it answers 409 naming the lawyer found.
   */
  async save(
    input: NormalizedAdminLawyerSave,
    session: SessionContext,
    /** Its Idempotency-Key: the reply is kept with the profile, and a retry gets it back. */
    replyKey?: ReplyKey | null,
  ): Promise<{ lawyer: Lawyer; created: boolean }> {
    const now = this.deps.clock.now().toISOString();
    const { vault } = this.deps;
    const givenHashes = input.licenseKey ? vault.hashes(input.licenseKey) : [];
    const byEmail = await this.lawyers.findByEmail(input.email);
    const byKey = await this.lawyers.findByAnyLicenseHash(givenHashes);
    if (byEmail && byKey && byEmail.id !== byKey.id) throw new ConflictError(MESSAGES.lawyerSave.conflict);
    const previous = byEmail ?? byKey;
    if (previous && input.createOnly) {
      throw new ExistingLawyerError(
        MESSAGES.lawyerSave.alreadyExists(previous.firstName, previous.lastName, previous.email),
        {
          id: previous.id,
          firstName: previous.firstName,
          lastName: previous.lastName,
          email: previous.email,
        },
      );
    }

    // Another key for a lawyer (or a given one bound to a new profile) changes a firm's
    // credential: asked only after a recent second-factor check, and on the trail.
    const changesKey =
      input.licenseKey !== null &&
      !(previous?.licenseKeyHash && vault.matches(input.licenseKey, previous.licenseKeyHash));
    if (changesKey) await this.deps.requireRecentSecondFactor(session);
    // The key he will hold: the one given, else his own, else (a new lawyer) a generated one.
    const licenseKey = input.licenseKey ?? (previous?.licenseKeyHash ? null : generateLicenseKey());
    const alsoWrite: JoinedWrite[] = [];
    let keyFields = {
      licenseKeyHash: previous?.licenseKeyHash ?? null,
      licenseKeyCiphertext: previous?.licenseKeyCiphertext ?? null,
      licenseEmailUndeliveredAt: previous?.licenseEmailUndeliveredAt ?? null,
    };
    if (licenseKey && !(previous?.licenseKeyHash && vault.matches(licenseKey, previous.licenseKeyHash))) {
      // An existing licence under either spelling of the key; a new one in its one spelling.
      const license = await this.licenses.getByAnyHash(vault.hashes(licenseKey));
      if (license?.licenseType === 'admin')
        throw new InvalidInputError('licenseKey', MESSAGES.lawyerSave.notLawyerLicense);
      const record =
        license ??
        newLicenseRecord(vault, licenseKey, { licenseType: 'lawyer', userEmail: input.email }, now);
      if (!license) alsoWrite.push({ newLicense: record });
      keyFields = {
        licenseKeyHash: record.keyHash,
        licenseKeyCiphertext: record.keyCiphertext,
        // A licence whose key e-mail bounced before he held it: his card says so from now on.
        licenseEmailUndeliveredAt: record.licenseEmailUndeliveredAt ?? null,
      };
    }

    const id = previous?.id ?? randomUUID();
    const target = auditTarget.lawyer({
      id,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
    });
    alsoWrite.push(this.audit.joinedWrite(session, previous ? 'lawyer.update' : 'lawyer.create', target));
    if (changesKey && previous)
      alsoWrite.push(this.audit.joinedWrite(session, 'lawyer.license-key.change', target));
    const next = withProfileFields(
      {
        id,
        ...keyFields,
        hasGooglePassword: previous?.hasGooglePassword ?? false,
        hasGoogleCredentials: previous?.hasGoogleCredentials ?? false,
        createdAt: previous?.createdAt ?? now,
      },
      input,
      now,
    );
    const replyOf = (record: LawyerRecord) => ({
      lawyer: toLawyerView(record, vault),
      created: previous === null,
    });
    const saved = await this.writer.write(previous, next, secretChangesOf(input), (record) =>
      replyKey
        ? [
            ...alsoWrite,
            // An edit is answered 200: the create's status is the route's.
            {
              firstReply: {
                ...replyKey,
                statusCode: previous ? 200 : replyKey.statusCode,
                body: replyOf(record),
                at: now,
              },
            },
          ]
        : alsoWrite,
    );
    return replyOf(saved);
  }

  /**
   * Deletes a lawyer and everything that is his: his workflows with their history, his secrets,
   * his profile and claims, his licences (never an admin licence) and the sessions they opened.
   */
  async delete(id: string, session: SessionContext): Promise<void> {
    await this.erase(await this.existing(id), 'lawyer.delete', session);
  }

  /**
   * Spec §9 retention: the data of the lawyer holding an ended licence goes as an admin's deletion
   * would take it (a licence nobody holds, with its sessions); anything active again stays, billing too.
   * @returns `purged`; `active` when the licence is in use again; `absent` when nothing was left
   */
  async purgeLicenseHolder(keyHash: string, actor: AuditActor): Promise<'purged' | 'active' | 'absent'> {
    const license = await this.licenses.getByHash(keyHash);
    if (license?.isActive || license?.licenseType === 'admin') return 'active';
    const holder = await this.lawyers.findByLicenseHash(keyHash);
    if (holder) {
      await this.erase(holder, 'lawyer.purge', actor, { keepActiveLicenses: true });
      return 'purged';
    }
    if (!license) return 'absent';
    await this.licenses.delete(keyHash);
    await this.sessions.deleteByLicense(keyHash);
    await this.deps.secondFactors.erase(keyHash);
    return 'purged';
  }

  /**
   * The subscriptions of his licences end first, so that a payment provider failure deletes
   * nothing; then his workflows and secrets, so that a failure halfway leaves the profile for a
   * retry to finish; then the profile, the licences and the audit entry in one transaction; then
   * the sessions.
   */
  private async erase(
    lawyer: LawyerRecord,
    action: 'lawyer.delete' | 'lawyer.purge',
    actor: AuditActor,
    options: { readonly keepActiveLicenses?: boolean } = {},
  ): Promise<void> {
    const licenses = await this.licenses.listByUserEmail(lawyer.email);
    if (lawyer.licenseKeyHash && !licenses.some((license) => license.keyHash === lawyer.licenseKeyHash)) {
      const own = await this.licenses.getByHash(lawyer.licenseKeyHash);
      if (own) licenses.push(own);
    }
    const removed: typeof licenses = [];
    for (const license of licenses) {
      if (license.licenseType === 'admin') continue;
      // A firm that bought again under the same e-mail keeps its new, paid-for licence.
      if (options.keepActiveLicenses && license.isActive) continue;
      // A licence that carries his e-mail but is held by another lawyer stays that lawyer's.
      const holder = await this.lawyers.findByLicenseHash(license.keyHash);
      if (!holder || holder.id === lawyer.id) removed.push(license);
    }
    // No licence goes while Stripe would still charge for it.
    for (const license of removed) await this.deps.endSubscription?.(license);

    // The workflows only: their histories are left to the TTL, so this takes as long as the
    // lawyer has workflows, never as long as they have history.
    await this.workflows.deleteByOwner(lawyer.email);
    await this.deps.secrets.delete(lawyer.id);
    try {
      await this.lawyers.delete(lawyer, [
        ...removed.map((license) => ({ removedLicense: license.keyHash })),
        this.audit.joinedWrite(actor, action, auditTarget.lawyer(lawyer)),
      ]);
    } catch (error) {
      if (error instanceof LawyerConflictError || error instanceof LawyerChangedError)
        throw new ConflictError(MESSAGES.lawyerSave.changed, { cause: error });
      throw error;
    }
    // The licences are gone, so no new session can open: end the ones still running.
    for (const license of removed) {
      await this.sessions.deleteByLicense(license.keyHash);
      await this.deps.secondFactors.erase(license.keyHash);
    }
  }

  /** A lawyer's licence key in clear, for the admin who asks; on the trail before it leaves. */
  async revealLicenseKey(id: string, session: SessionContext): Promise<{ licenseKey: string | null }> {
    const lawyer = await this.existing(id);
    await this.audit.record(session, 'lawyer.license-key.reveal', auditTarget.lawyer(lawyer));
    return {
      licenseKey: lawyer.licenseKeyCiphertext ? this.deps.vault.decrypt(lawyer.licenseKeyCiphertext) : null,
    };
  }

  /** The secrets of a lawyer, for the admin who asks; the reveal is on the trail before they leave. */
  async revealSecrets(id: string, session: SessionContext): Promise<LawyerSecrets> {
    const lawyer = await this.existing(id);
    await this.audit.record(session, 'lawyer.secrets.reveal', auditTarget.lawyer(lawyer));
    return (await this.deps.secrets.get(lawyer.id)) ?? { googlePassword: null, googleCredentials: null };
  }

  /**
   * Spec §5 look-up: by licence key, then by the licence's e-mail (the licence record's, else the
   * one given). The e-mail shown is the record's, else the licence's. An admin may look anyone up;
   * a lawyer or notary only himself (his own key, his own e-mail), anything else is a 403.
   */
  async lookup(
    request: { licenseKey?: string; email?: string },
    session: SessionContext,
  ): Promise<LawyerLookupReply> {
    const keyHashes = request.licenseKey ? this.deps.vault.hashes(request.licenseKey) : [];
    if (session.role !== 'admin') {
      if (keyHashes.length > 0 && !keyHashes.includes(session.licenseKeyHash))
        throw new ForbiddenError(MESSAGES.session.forbidden);
      const ownEmails = await ownEmailsOf(this.lawyers, session);
      if (request.email && !ownEmails.includes(request.email))
        throw new ForbiddenError(MESSAGES.session.forbidden);
      // Himself only: his profile through his licence, never whoever holds an e-mail he named.
      const own = await ownProfileOf(this.lawyers, session);
      return {
        lawyer: own ? toLawyerView(own, this.deps.vault, 'clear') : null,
        email: own?.email ?? session.license.userEmail ?? request.email ?? null,
      };
    }
    const license = await this.licenses.getByAnyHash(keyHashes);
    const licenseEmail = license?.userEmail ?? request.email ?? null;
    const lawyer =
      (await this.lawyers.findByAnyLicenseHash(keyHashes)) ??
      (licenseEmail ? await this.lawyers.findByEmail(licenseEmail) : null);
    return {
      lawyer: lawyer ? toLawyerView(lawyer, this.deps.vault) : null,
      email: lawyer?.email ?? licenseEmail,
    };
  }

  /** The type of the licence the lawyer holds; null when he holds none. */
  async licenseRoleOf(id: string): Promise<{ licenseType: LicenseRecord['licenseType'] | null }> {
    const lawyer = await this.existing(id);
    const license = lawyer.licenseKeyHash ? await this.licenses.getByHash(lawyer.licenseKeyHash) : null;
    return { licenseType: license?.licenseType ?? null };
  }

  /**
   * Makes the lawyer's licence a notary's one, or a lawyer's again; the change and its audit entry
   * are one transaction. His role follows at his next request (each one re-reads the licence).
   */
  async setLicenseRole(
    id: string,
    role: 'lawyer' | 'notary',
    session: SessionContext,
  ): Promise<{ licenseType: 'lawyer' | 'notary' }> {
    const lawyer = await this.existing(id);
    const license = lawyer.licenseKeyHash ? await this.licenses.getByHash(lawyer.licenseKeyHash) : null;
    if (!license) throw new InvalidInputError('licenseType', MESSAGES.licenseRole.noLicense);
    if (license.licenseType === 'admin')
      throw new InvalidInputError('licenseType', MESSAGES.lawyerSave.notLawyerLicense);
    if (license.licenseType === role) return { licenseType: role };
    const now = this.deps.clock.now().toISOString();
    try {
      await this.lawyers.update(lawyer, { ...lawyer, updatedAt: now }, [
        { licenseRole: { keyHash: license.keyHash, from: license.licenseType, to: role, at: now } },
        this.audit.joinedWrite(session, `license.role.${role}`, auditTarget.lawyer(lawyer)),
      ]);
    } catch (error) {
      // The profile or the licence changed since they were read: nothing was written.
      if (error instanceof LawyerChangedError || error instanceof LawyerConflictError)
        throw new ConflictError(MESSAGES.lawyerSave.changed, { cause: error });
      throw error;
    }
    return { licenseType: role };
  }

  private async existing(id: string): Promise<LawyerRecord> {
    const lawyer = await this.lawyers.getById(id);
    if (!lawyer) throw new NotFoundError(MESSAGES.directory.lawyerNotFound);
    return lawyer;
  }
}
