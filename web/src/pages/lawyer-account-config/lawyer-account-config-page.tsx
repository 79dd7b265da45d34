import { AccountConfiguration } from '../../components/member/account-config';
import { ACCOUNT_CONFIG_TEXT } from '../../components/member/strings';

/** Lawyer account configuration (/lawyer/account-config and /lawyer/google). */
export function LawyerAccountConfigPage() {
  return <AccountConfiguration variant="lawyer" title={ACCOUNT_CONFIG_TEXT.title} />;
}
