import { CheckoutReply, type CheckoutRequest, ROUTES, type RouteDefinition } from '../../../shared';
import { STRINGS } from '../strings';
import { callRoute } from './api-client';
import { ApiUnavailableError } from './api-errors';

/**
 * Opens a payment session (create-checkout). The route arrives with the billing work; until the
 * route table declares it, the call fails with {@link ApiUnavailableError} and nothing is sent.
 */
export async function createCheckout(request: CheckoutRequest): Promise<CheckoutReply> {
  const route = (ROUTES as Record<string, RouteDefinition | undefined>).createCheckout;
  if (!route) throw new ApiUnavailableError(STRINGS.api.unavailable);
  return CheckoutReply.parse(await callRoute(route, { body: request }));
}
