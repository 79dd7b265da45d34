import { AccountConfiguration } from '../../components/member/account-config';
import { ACCOUNT_CONFIG_TEXT } from '../../components/member/strings';

/** Notary Google configuration (/notary/google): the notary form, Google password required. */
export function NotaryAccountConfigPage() {
  return <AccountConfiguration variant="notary" title={ACCOUNT_CONFIG_TEXT.notaryTitle} />;
}
