import { describe, expect, it } from 'vitest';

import { withLegalFooter } from '../../../../functions/domain/core/legal-footer';
import type { MailMessage } from '../../../../functions/domain/core/ports';
import type { LegalDetails } from '../../../../shared/legal-details';

const DETAILS: LegalDetails = {
  name: 'Lexflow',
  legalForm: 'SAS au capital de 10 000 €',
  registration: 'RCS Paris 912 345 678',
  postalAddress: '12 rue de la Paix, 75002 Paris, France',
  contactEmail: 'contact@lexflow.example',
  publicationDirector: 'Claire Martin, présidente',
};

describe('withLegalFooter', () => {
  it("ends every e-mail with the publisher's legal details, the message itself unchanged", async () => {
    // Arrange
    const sent: MailMessage[] = [];
    const mailer = withLegalFooter({ send: async (message) => void sent.push(message) }, DETAILS);

    // Act
    await mailer.send({ to: 'cabinet@exemple.fr', subject: 'Sujet', text: 'Bonjour,\n\nCorps.' });

    // Assert
    expect(sent).toEqual([
      {
        to: 'cabinet@exemple.fr',
        subject: 'Sujet',
        text:
          'Bonjour,\n\nCorps.\n\n—\nLexflow, SAS au capital de 10 000 €, RCS Paris 912 345 678\n' +
          '12 rue de la Paix, 75002 Paris, France · contact@lexflow.example\n' +
          'Directeur de la publication : Claire Martin, présidente',
      },
    ]);
  });
});
