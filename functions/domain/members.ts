import type { LawyerRecord, LawyerRepository } from '../data/lawyers';
import type { SessionContext } from './sessions';
import { findLawyerOfLicense } from './sign-in';

/**
 * The profile of a signed-in lawyer or notary (spec §5 look-up): the one holding his licence key,
 * else the one whose e-mail is his licence's. The licence is the one re-read for this request.
 */
export function ownProfileOf(
  lawyers: LawyerRepository,
  session: SessionContext,
): Promise<LawyerRecord | null> {
  return findLawyerOfLicense(lawyers, session.license);
}

/**
 * The e-mail that owns a lawyer's workflows (their notary_email): his profile's e-mail as it is now,
 * so a profile e-mail changed after sign-in is followed at once; the session's while he has none.
 */
export async function ownerEmailOf(lawyers: LawyerRepository, session: SessionContext): Promise<string> {
  return (await ownProfileOf(lawyers, session))?.email ?? session.email;
}
