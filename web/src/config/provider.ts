/**
 * The provider of the product and the company identity the legal pages show.
 *
 * The spec deliberately withholds the company's registration number, postal address and contact
 * e-mail: the `company` values below are placeholders, to be replaced by the real ones before the
 * site goes live.
 */
export const PROVIDER = {
  /** Shown after 'Propulsé par' on the login card. */
  name: 'Lexflow',
  contactUrl: 'https://lexflow.fr/contact',
  videoDemosUrl: 'https://lexflow.fr/demos',
  company: {
    legalName: 'Lexflow SAS',
    registrationNumber: 'RCS Paris 000 000 000',
    postalAddress: '00 rue de l’Exemple, 75000 Paris, France',
    contactEmail: 'contact@lexflow.fr',
  },
} as const;
