import { GoogleGuide } from '../lawyer-google-ecosystem/google-guide';
import { NOTARY_GUIDE } from '../lawyer-google-ecosystem/guide-content';

/** The notary's Google ecosystem guide (/notary/google-ecosystem): step-by-step folders and sheets. */
export function NotaryGoogleEcosystemPage() {
  return <GoogleGuide sections={NOTARY_GUIDE} />;
}
