import { LAWYER_WELCOME } from '../../components/member/strings';
import { Welcome } from '../../components/member/welcome';

/** Lawyer welcome (/lawyer/welcome). */
export function LawyerWelcomePage() {
  return <Welcome content={LAWYER_WELCOME} />;
}
