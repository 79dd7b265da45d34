import * as z from 'zod';

import { EmailAddress } from '../../../shared/schemas/common';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { portalLinkSenderOf } from '../../runtime/services/billing';

/** What request-portal-link hands over: the e-mail typed in the sign-in page's form. */
export const PortalLinkRequest = z.object({ email: EmailAddress() });

/**
 * Invoked asynchronously by request-portal-link once it answered (locally, a task of the same
 * process): the customer-portal link of the licences billed to the e-mail, sent to it. An
 * invocation that throws (Stripe or SES down) is retried by Lambda, then kept in its on-failure
 * queue under an alarm.
 */
const create = (deps: AppDependencies) => async (event: unknown) => {
  const { email } = PortalLinkRequest.parse(event);
  await (await portalLinkSenderOf(deps)).send(email);
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createPortalLinkSenderHandler = declaredFunction('portal-link-sender', create);

export const handler = lambdaEntry('portal-link-sender', createPortalLinkSenderHandler);
