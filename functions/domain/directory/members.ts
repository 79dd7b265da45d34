import { MESSAGES } from '../../../shared/messages';
import { NotFoundError } from '../core/errors';
import type { LicenseRecord, MemberLookup } from '../identity/ports';
import type { SessionContext } from '../identity/sessions';
import type { LawyerRecord, Lawyers, WorkflowRecord, Workflows } from './ports';

/**
 * Who owns what, decided here only: a member is known by his licence, re-read on every request, never
 * by the e-mail his session copied at sign-in, which goes stale and may since be someone else's.
 */

/** The look-ups that find a member's profile. */
export type ProfileLookup = Pick<Lawyers, 'findByLicenseHash' | 'findByEmail'>;

/**
 * Lawyer look-up of spec §5: first by licence key, then by the licence's e-mail. A profile found
 * by e-mail that holds another licence's key is that other licence's, not this one's.
 */
export async function findLawyerOfLicense(
  lawyers: ProfileLookup,
  license: LicenseRecord,
): Promise<LawyerRecord | null> {
  return lawyerOfLicense(lawyers, license, await lawyers.findByLicenseHash(license.keyHash));
}

/**
 * The same rule once the profile holding the licence's key (`bound`, null when none does) is known,
 * for a caller that read it beside the licence.
 */
export async function lawyerOfLicense(
  lawyers: ProfileLookup,
  license: LicenseRecord,
  bound: LawyerRecord | null,
): Promise<LawyerRecord | null> {
  if (bound) return bound;
  if (!license.userEmail) return null;
  const byEmail = await lawyers.findByEmail(license.userEmail);
  if (!byEmail || (byEmail.licenseKeyHash !== null && byEmail.licenseKeyHash !== license.keyHash))
    return null;
  return byEmail;
}

/** The profile of a signed-in lawyer or notary, through the licence re-read for this request. */
export function ownProfileOf(
  lawyers: ProfileLookup,
  session: Pick<SessionContext, 'license'>,
): Promise<LawyerRecord | null> {
  return findLawyerOfLicense(lawyers, session.license);
}

/**
 * The e-mail that owns a member's workflows (their notary_email): his profile's as it is now (as
 * the claim on his key re-read with his session says it, else read), else his licence's; null when
 * neither exists (he then owns nothing).
 */
export async function ownerEmailOf(
  lawyers: ProfileLookup,
  session: Pick<SessionContext, 'license' | 'licenseHolderEmail'>,
): Promise<string | null> {
  if (session.licenseHolderEmail) return session.licenseHolderEmail;
  return (await ownProfileOf(lawyers, session))?.email ?? session.license.userEmail ?? null;
}

/** The e-mails a member may name as his own in a look-up: his profile's and his licence's. */
export async function ownEmailsOf(
  lawyers: ProfileLookup,
  session: Pick<SessionContext, 'license'>,
): Promise<string[]> {
  const profile = await ownProfileOf(lawyers, session);
  return [profile?.email, session.license.userEmail].filter(
    (email): email is string => typeof email === 'string' && email.length > 0,
  );
}

/** The look-up identity asks for at sign-in and in its licence look-ups. */
export function memberLookupOf(lawyers: ProfileLookup & Pick<Lawyers, 'getById'>): MemberLookup {
  return {
    async memberOf(license, boundLawyerId) {
      const bound = boundLawyerId === null ? null : await lawyers.getById(boundLawyerId);
      return lawyerOfLicense(lawyers, license, bound);
    },
    ownEmailsOf: (license) => ownEmailsOf(lawyers, { license }),
  };
}

const sameEmail = (left: string, right: string) => left.toLowerCase() === right.toLowerCase();

/**
 * The workflow a caller may see: any for an admin, his own for a lawyer or notary. Someone else's
 * workflow is answered as a missing one, so ids cannot be probed.
 */
export async function visibleWorkflow(
  workflows: Pick<Workflows, 'getById'>,
  lawyers: ProfileLookup,
  session: SessionContext,
  workflowId: string,
): Promise<WorkflowRecord> {
  const workflow = await workflows.getById(workflowId);
  if (!workflow) throw new NotFoundError(MESSAGES.workflow.notFound);
  if (session.role === 'admin') return workflow;
  const owner = await ownerEmailOf(lawyers, session);
  if (owner === null || !sameEmail(workflow.lawyerEmail, owner)) {
    throw new NotFoundError(MESSAGES.workflow.notFound);
  }
  return workflow;
}

/**
 * The workflows of `ids` a caller may see, found in one BatchGetItem: any for an admin, his own
 * for a lawyer or notary. A missing one and someone else's are left out alike.
 */
export async function visibleWorkflows(
  workflows: Pick<Workflows, 'getMany'>,
  lawyers: ProfileLookup,
  session: SessionContext,
  ids: readonly string[],
): Promise<WorkflowRecord[]> {
  const [found, owner] = await Promise.all([
    workflows.getMany(ids),
    session.role === 'admin' ? null : ownerEmailOf(lawyers, session),
  ]);
  if (session.role === 'admin') return found;
  return owner === null ? [] : found.filter((workflow) => sameEmail(workflow.lawyerEmail, owner));
}
