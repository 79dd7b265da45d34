import { randomUUID } from 'node:crypto';

import { MESSAGES } from '../../../shared/messages';
import type { NormalizedLawyerSave, ProfileReply } from '../../../shared/schemas/directory';
import type { LicenseKeyVault } from '../../security/license-key-vault';
import { ForbiddenError } from '../core/errors';
import type { Sessions } from '../identity/ports';
import type { SessionContext } from '../identity/sessions';
import {
  LawyerProfileWriter,
  type ProfileWriterDependencies,
  secretChangesOf,
  toLawyerView,
  withProfileFields,
} from './lawyers';
import { ownProfileOf, type ProfileLookup } from './members';
import type { LawyerRecord } from './ports';

/** What a member's own profile works with. */
export interface ProfileServiceDependencies extends ProfileWriterDependencies {
  readonly lawyers: ProfileWriterDependencies['lawyers'] & ProfileLookup;
  readonly sessions: Pick<Sessions, 'updateEmail'>;
  readonly vault: LicenseKeyVault;
}

/**
 * The signed-in lawyer's own profile (spec §2 /lawyer/account-config, §4 account configuration).
 * His profile is bound to his licence: he can neither choose another key nor reach another profile.
 */
export class ProfileService {
  private readonly lawyers: ProfileServiceDependencies['lawyers'];
  private readonly sessions: ProfileServiceDependencies['sessions'];
  private readonly writer: LawyerProfileWriter;

  constructor(private readonly deps: ProfileServiceDependencies) {
    this.lawyers = deps.lawyers;
    this.sessions = deps.sessions;
    this.writer = new LawyerProfileWriter(deps);
  }

  /** His profile (null while not configured) and the e-mail his session should carry. */
  async read(session: SessionContext): Promise<ProfileReply> {
    return this.reply(session, await ownProfileOf(this.lawyers, session));
  }

  /**
   * Creates or updates his profile. A licence key in the request must be his own (a 403 otherwise);
   * a new profile holds the key of his session's licence.
   */
  async save(input: NormalizedLawyerSave, session: SessionContext): Promise<ProfileReply> {
    if (input.licenseKey && !this.deps.vault.matches(input.licenseKey, session.licenseKeyHash)) {
      throw new ForbiddenError(MESSAGES.session.forbidden);
    }
    const now = this.deps.clock.now().toISOString();
    const previous = await ownProfileOf(this.lawyers, session);
    const holdsKey = previous?.licenseKeyHash != null;
    const next = withProfileFields(
      {
        id: previous?.id ?? randomUUID(),
        licenseKeyHash: holdsKey ? previous.licenseKeyHash : session.licenseKeyHash,
        licenseKeyCiphertext: holdsKey ? previous.licenseKeyCiphertext : session.license.keyCiphertext,
        hasGooglePassword: previous?.hasGooglePassword ?? false,
        hasGoogleCredentials: previous?.hasGoogleCredentials ?? false,
        createdAt: previous?.createdAt ?? now,
        licenseEmailUndeliveredAt: holdsKey
          ? (previous.licenseEmailUndeliveredAt ?? null)
          : (session.license.licenseEmailUndeliveredAt ?? null),
      },
      input,
      now,
    );
    const saved = await this.writer.write(previous, next, secretChangesOf(input));
    return this.reply(session, saved);
  }

  /**
   * Spec §4: when the profile's e-mail differs from the session's, the session follows it; the
   * server-side session too, so every later check of this session sees the same e-mail.
   */
  private async reply(session: SessionContext, profile: LawyerRecord | null): Promise<ProfileReply> {
    const sessionEmail = profile?.email ?? session.license.userEmail ?? session.email;
    const sessionEmailChanged = sessionEmail !== session.email;
    if (sessionEmailChanged) await this.sessions.updateEmail(session.sessionId, sessionEmail);
    return {
      profile: profile ? toLawyerView(profile, this.deps.vault, 'clear') : null,
      sessionEmail,
      sessionEmailChanged,
    };
  }
}
