import { NOTARY_WELCOME } from '../lawyer-welcome/strings';
import { Welcome } from '../lawyer-welcome/welcome';

/** Notary welcome (/notary/welcome): the two buttons to configuration and the Google guide. */
export function NotaryWelcomePage() {
  return <Welcome content={NOTARY_WELCOME} />;
}
