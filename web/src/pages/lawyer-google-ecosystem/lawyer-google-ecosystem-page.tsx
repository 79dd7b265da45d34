import { GoogleGuide } from './google-guide';
import { LAWYER_GUIDE } from './guide-content';

/** The lawyer's Google ecosystem guide (/lawyer/google-ecosystem). */
export function LawyerGoogleEcosystemPage() {
  return <GoogleGuide sections={LAWYER_GUIDE} />;
}
