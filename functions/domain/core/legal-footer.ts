import { type LegalDetails, legalFooter } from '../../../shared/legal-details';
import type { Mailer } from './ports';

/** Every e-mail the product sends ends with the publisher's legal details. */
export function withLegalFooter(mailer: Mailer, details: LegalDetails): Mailer {
  const footer = legalFooter(details);
  return { send: (message) => mailer.send({ ...message, text: `${message.text}\n\n${footer}` }) };
}
