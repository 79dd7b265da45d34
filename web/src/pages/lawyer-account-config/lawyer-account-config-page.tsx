import { AccountConfiguration } from './account-config';
import { ACCOUNT_CONFIG_TEXT } from './strings';

/** Lawyer account configuration (/lawyer/account-config and /lawyer/google). */
export function LawyerAccountConfigPage() {
  return <AccountConfiguration variant="lawyer" title={ACCOUNT_CONFIG_TEXT.title} />;
}
