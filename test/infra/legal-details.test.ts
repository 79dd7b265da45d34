import { describe, expect, it } from 'vitest';

import { LEGAL_DETAIL_FLAGS } from '../../lib/settings';
import { EXAMPLE_LEGAL_DETAILS } from '../../shared/legal-details';
import { PROD_CONTEXT, settingsFrom } from './support';

/** prod's context without the legal details. */
const {
  companyName,
  companyLegalForm,
  companyRegistration,
  companyAddress,
  companyEmail,
  publicationDirector,
  ...prodWithoutLegal
} = PROD_CONTEXT;

describe("the publisher's legal details", () => {
  it('are required by a prod synthesis, each flag named', () => {
    const attempt = () => settingsFrom(prodWithoutLegal);

    for (const flag of Object.values(LEGAL_DETAIL_FLAGS)) {
      expect(attempt).toThrow(new RegExp(`-c ${flag}=<…> is required for prod`));
    }
  });

  it('refuse an example value in prod', () => {
    expect(() =>
      settingsFrom({ ...PROD_CONTEXT, companyRegistration: 'Exemple — RCS Paris 000 000 000' }),
    ).toThrow(/-c companyRegistration must be the real value, not an example/);
    expect(() => settingsFrom({ ...PROD_CONTEXT, companyEmail: EXAMPLE_LEGAL_DETAILS.contactEmail })).toThrow(
      /-c companyEmail must be the real value, not an example/,
    );
  });

  it('refuse a contact that is not an e-mail address', () => {
    expect(() => settingsFrom({ ...PROD_CONTEXT, companyEmail: 'contact' })).toThrow(
      /-c companyEmail must be an e-mail address/,
    );
  });

  it('are the values given in prod', () => {
    expect(settingsFrom(PROD_CONTEXT).legalDetails).toEqual({
      name: companyName,
      legalForm: companyLegalForm,
      registration: companyRegistration,
      postalAddress: companyAddress,
      contactEmail: companyEmail,
      publicationDirector,
    });
  });

  it("are example values, each marked 'Exemple — …', on a dev stage without them", () => {
    const { legalDetails } = settingsFrom({ mailFrom: 'a@b.example' });

    expect(legalDetails).toEqual(EXAMPLE_LEGAL_DETAILS);
    for (const [field, value] of Object.entries(legalDetails)) {
      if (field !== 'contactEmail') expect(value).toMatch(/^Exemple — /);
    }
  });
});
