import { MESSAGES } from '../../../shared/messages';
import type { LicenseKeyVault } from '../../security/license-key-vault';
import { ForbiddenError } from '../core/errors';
import type { LicenseRecord } from '../identity/ports';
import type { SessionContext } from '../identity/sessions';

/**
 * The licence a member's subscription call is about: always the session's own. A key in the
 * request is accepted only when it is that licence's key, so that a lawyer never reads, cancels
 * or re-assigns another firm's subscription (403 otherwise).
 */
export function ownLicense(
  session: SessionContext,
  requestedKey: string | undefined,
  vault: LicenseKeyVault,
): LicenseRecord {
  if (requestedKey !== undefined && !vault.matches(requestedKey, session.licenseKeyHash))
    throw new ForbiddenError(MESSAGES.session.forbidden);
  return session.license;
}
