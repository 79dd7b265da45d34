import { MESSAGES } from '../../../shared/messages';
import { ownLicense } from '../../domain/billing/own-license';
import { InvalidInputError } from '../../domain/core/errors';
import { ownerEmailOf } from '../../domain/directory/members';
import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { billingContextOf } from '../../runtime/services/billing';
import { profileLookupOf } from '../../runtime/services/directory';

/**
 * POST /api/update-license-email (lawyer, notary): associates the caller's licence with his
 * e-mail — his profile's as it is now, else his licence's — so that it is found by
 * e-mail (spec §7 license_keys look-ups).
 */
const create = (deps: AppDependencies) => {
  const billing = billingContextOf(deps);
  const lawyers = profileLookupOf(deps.table);
  return apiHandler(deps, {
    updateLicenseEmail: async ({ body, session }) => {
      const { subscriptions, vault } = await billing();
      ownLicense(session, body.licenseKey, vault);
      const email = await ownerEmailOf(lawyers, session);
      if (!email) throw new InvalidInputError('email', MESSAGES.subscription.updateLicenseFailed);
      return subscriptions.updateLicenseEmail(session.licenseKeyHash, email);
    },
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createUpdateLicenseEmailHandler = declaredFunction('update-license-email', create);

export const handler = lambdaEntry('update-license-email', createUpdateLicenseEmailHandler);
