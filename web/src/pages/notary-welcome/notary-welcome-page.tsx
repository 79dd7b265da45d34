import { NOTARY_WELCOME } from '../../components/member/strings';
import { Welcome } from '../../components/member/welcome';

/** Notary welcome (/notary/welcome): the two buttons to configuration and the Google guide. */
export function NotaryWelcomePage() {
  return <Welcome content={NOTARY_WELCOME} />;
}
