import { LAWYER_WELCOME } from './strings';
import { Welcome } from './welcome';

/** Lawyer welcome (/lawyer/welcome). */
export function LawyerWelcomePage() {
  return <Welcome content={LAWYER_WELCOME} />;
}
