import { GoogleGuide } from '../../components/member/google-guide';
import { LAWYER_GUIDE } from '../../components/member/guide-content';

/** The lawyer's Google ecosystem guide (/lawyer/google-ecosystem). */
export function LawyerGoogleEcosystemPage() {
  return <GoogleGuide sections={LAWYER_GUIDE} />;
}
