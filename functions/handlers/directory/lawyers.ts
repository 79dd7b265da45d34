import { MESSAGES } from '../../../shared/messages';
import { keptReplies } from '../../http/kept-replies';
import { idParameter } from '../../http/parameters';
import { apiHandler, withStatus } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { billingContextOf, licenseEmailResendOf } from '../../runtime/services/billing';
import { lawyerServiceOf } from '../../runtime/services/directory';
import { firstRepliesOf } from '../../runtime/services/kept-replies';

/**
 * /api/lawyers: the admin's lawyers and notaries (list, read, save, delete, reveal of the secrets and
 * of the licence key, licence type, licence key sent again by e-mail) and the spec §5 look-up, open to a lawyer for himself.
 */
const create = (deps: AppDependencies) => {
  // Stripe is reached only when a deleted lawyer's licence has a subscription to end.
  const billing = deps.billing ? billingContextOf(deps) : null;
  const lawyers = () =>
    lawyerServiceOf(
      deps,
      billing ? async (license) => (await billing()).subscriptions.endSubscriptionOf(license) : undefined,
    );
  const lawyerId = (pathParameters: Readonly<Record<string, string | undefined>>) =>
    idParameter(pathParameters, MESSAGES.directory.lawyerNotFound);

  return apiHandler(
    deps,
    {
      listLawyers: async ({ query }) => (await lawyers()).list(query),
      getLawyer: async ({ pathParameters }) => (await lawyers()).get(lawyerId(pathParameters)),
      saveLawyer: async ({ body, session, replyKey }) => {
        const reply = await (await lawyers()).save(body, session, replyKey);
        return reply.created ? withStatus(201, reply) : reply;
      },
      deleteLawyer: async ({ pathParameters, session }) => {
        await (await lawyers()).delete(lawyerId(pathParameters), session);
        return { success: true };
      },
      revealLawyerSecrets: async ({ pathParameters, session }) =>
        (await lawyers()).revealSecrets(lawyerId(pathParameters), session),
      getLicenseRole: async ({ pathParameters }) => (await lawyers()).licenseRoleOf(lawyerId(pathParameters)),
      setLicenseRole: async ({ pathParameters, body, session }) =>
        (await lawyers()).setLicenseRole(lawyerId(pathParameters), body.licenseType, session),
      revealLawyerLicenseKey: async ({ pathParameters, session }) =>
        (await lawyers()).revealLicenseKey(lawyerId(pathParameters), session),
      resendLicenseEmail: async ({ pathParameters, session }) =>
        (await licenseEmailResendOf(deps)).resend(lawyerId(pathParameters), session),
      lookupLawyer: async ({ body, session }) => (await lawyers()).lookup(body, session),
    },
    { keptReplies: (route) => keptReplies(route, firstRepliesOf(deps.table)) },
  );
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createLawyersHandler = declaredFunction('lawyers', create);

export const handler = lambdaEntry('lawyers', createLawyersHandler);
