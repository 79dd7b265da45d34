import type { FormObject } from './form';
import { type PortalSession, portalSessionJson, stripeId } from './objects';
import type { StandInState } from './state';
import { noSuch, Params } from './validation';

/** POST /v1/billing_portal/sessions */
export function createPortalSession(state: StandInState, form: FormObject) {
  const params = new Params(form, '', ['customer', 'return_url', 'locale', 'expand']);
  params.expand([]);
  const customerId = params.requiredString('customer');
  if (!state.customers.has(customerId)) throw noSuch('customer', customerId, 'customer');
  const portal: PortalSession = {
    id: stripeId('bps', 24),
    created: state.nowSeconds(),
    customerId,
    returnUrl: params.url('return_url', false) ?? null,
    locale: params.string('locale') ?? null,
  };
  state.portals.set(portal.id, portal);
  return portalSessionJson(portal, `${state.baseUrl}/portal/${portal.id}`);
}
