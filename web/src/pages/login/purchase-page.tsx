import { usePageTitle } from '../../layout/use-page-title';
import { STRINGS } from '../../strings';
import { LoginCard } from './login-card';
import { PurchaseForm } from './purchase-form';

/**
 * /purchase: the purchase form on its own, which the subscription page opens in a new tab (spec §2,
 * §7). Unlike /login it does not send a signed-in user away: buying a licence needs no session.
 */
export function PurchasePage() {
  usePageTitle(STRINGS.purchase.title);
  return (
    <LoginCard>
      <PurchaseForm />
    </LoginCard>
  );
}
