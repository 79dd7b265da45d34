import * as z from 'zod';

/**
 * The publisher's legal details (French law on online services: name, legal form, registration,
 * address, contact, publication director). They are deployment settings, shown on /privacy and
 * at the foot of every e-mail; a prod deployment refuses to synthesize without them.
 */
export const LegalDetails = z.object({
  /** The company's name, e.g. 'Lexflow'. */
  name: z.string().min(1),
  /** Legal form and capital, e.g. 'SAS au capital de 10 000 €'. */
  legalForm: z.string().min(1),
  /** Trade-register entry, e.g. 'RCS Paris 912 345 678'. */
  registration: z.string().min(1),
  postalAddress: z.string().min(1),
  contactEmail: z.string().min(3),
  publicationDirector: z.string().min(1),
});
export type LegalDetails = z.infer<typeof LegalDetails>;

/** What marks an example value: a deployment may not go live with one. */
export const EXAMPLE_MARK = 'Exemple — ';

/** The values of a local run and of a dev stage: visibly examples, never taken for the real ones. */
export const EXAMPLE_LEGAL_DETAILS: LegalDetails = {
  name: `${EXAMPLE_MARK}Lexflow`,
  legalForm: `${EXAMPLE_MARK}SAS au capital de 1 000 €`,
  registration: `${EXAMPLE_MARK}RCS Paris 000 000 000`,
  postalAddress: `${EXAMPLE_MARK}1 rue de l’Exemple, 75000 Paris, France`,
  contactEmail: 'contact@exemple.invalid',
  publicationDirector: `${EXAMPLE_MARK}Prénom Nom, président`,
};

/** The legal footer of the e-mails, in plain text. */
export function legalFooter(details: LegalDetails): string {
  return [
    '—',
    `${details.name}, ${details.legalForm}, ${details.registration}`,
    `${details.postalAddress} · ${details.contactEmail}`,
    `Directeur de la publication : ${details.publicationDirector}`,
  ].join('\n');
}
