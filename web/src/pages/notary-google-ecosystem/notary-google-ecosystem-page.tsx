import { GoogleGuide } from '../../components/member/google-guide';
import { NOTARY_GUIDE } from '../../components/member/guide-content';

/** The notary's Google ecosystem guide (/notary/google-ecosystem): step-by-step folders and sheets. */
export function NotaryGoogleEcosystemPage() {
  return <GoogleGuide sections={NOTARY_GUIDE} />;
}
