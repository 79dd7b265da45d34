import { describe, expect, it } from 'vitest';

import { DEFAULT_GOOGLE_REDIRECT_URI } from '../../../../shared/constants';
import { LawyerInput } from '../../../../shared/schemas/lawyer';
import { messagesOf } from '../../../support/schemas';

const VALID_LAWYER = {
  firstName: 'Camille',
  lastName: 'Martin',
  email: 'camille.martin.cabinet@gmail.com',
};

describe('LawyerInput', () => {
  describe('normalisation', () => {
    it('defaults the main e-mail to the e-mail', () => {
      // Act
      const lawyer = LawyerInput.parse(VALID_LAWYER);

      // Assert
      expect(lawyer.mainEmail).toBe(VALID_LAWYER.email);
    });

    it('defaults an empty main e-mail to the e-mail', () => {
      // Act
      const lawyer = LawyerInput.parse({ ...VALID_LAWYER, mainEmail: '' });

      // Assert
      expect(lawyer.mainEmail).toBe(VALID_LAWYER.email);
    });

    it('keeps a main e-mail that is given', () => {
      // Act
      const lawyer = LawyerInput.parse({ ...VALID_LAWYER, mainEmail: 'contact@cabinet-martin.fr' });

      // Assert
      expect(lawyer.mainEmail).toBe('contact@cabinet-martin.fr');
    });

    it('trims and lower-cases the e-mail', () => {
      // Act
      const lawyer = LawyerInput.parse({ ...VALID_LAWYER, email: '  Camille.Martin@Gmail.com ' });

      // Assert
      expect(lawyer.email).toBe('camille.martin@gmail.com');
      expect(lawyer.mainEmail).toBe('camille.martin@gmail.com');
    });

    it('stores empty Google password, phone, office name and signature as null', () => {
      // Act
      const lawyer = LawyerInput.parse({
        ...VALID_LAWYER,
        googlePassword: '   ',
        phoneNumber: '',
        officeName: '',
        emailSignature: '',
      });

      // Assert
      expect(lawyer).toMatchObject({
        googlePassword: null,
        phoneNumber: null,
        officeName: null,
        emailSignature: null,
      });
    });

    it('trims the Google password', () => {
      // Act
      const lawyer = LawyerInput.parse({ ...VALID_LAWYER, googlePassword: '  s3cret!  ' });

      // Assert
      expect(lawyer.googlePassword).toBe('s3cret!');
    });

    it('defaults the reminder frequency to 7 days', () => {
      // Act
      const lawyer = LawyerInput.parse(VALID_LAWYER);

      // Assert
      expect(lawyer.reminderFrequency).toBe(7);
    });

    it('keeps a reminder frequency that is given', () => {
      // Act
      const lawyer = LawyerInput.parse({ ...VALID_LAWYER, reminderFrequency: 30 });

      // Assert
      expect(lawyer.reminderFrequency).toBe(30);
    });

    it('fills blank Google credentials with empty strings and the playground redirect URI', () => {
      // Act
      const lawyer = LawyerInput.parse({ ...VALID_LAWYER, googleCredentials: { clientId: ' id ' } });

      // Assert
      expect(lawyer.googleCredentials).toEqual({
        clientId: 'id',
        clientSecret: '',
        redirectUri: DEFAULT_GOOGLE_REDIRECT_URI,
      });
    });
  });

  describe('validation messages', () => {
    it.each([
      ['firstName', { firstName: 'C' }, 'Le prénom doit contenir au moins 2 caractères'],
      ['firstName', { firstName: '  C  ' }, 'Le prénom doit contenir au moins 2 caractères'],
      ['lastName', { lastName: 'M' }, 'Le nom doit contenir au moins 2 caractères'],
      ['email', { email: 'camille' }, 'Email invalide'],
      ['email', { email: '' }, 'Email invalide'],
      ['email', { email: undefined }, 'Email invalide'],
      ['mainEmail', { mainEmail: 'contact@' }, 'Email principal invalide'],
      [
        'phoneNumber',
        { phoneNumber: '01 42 00' },
        'Le numéro de téléphone doit contenir au moins 10 chiffres',
      ],
      ['officeName', { officeName: 'C' }, "Le nom de l'étude doit contenir au moins 2 caractères"],
    ])('refuses a wrong %s with its message (%o)', (field, change, message) => {
      // Act
      const messages = messagesOf(LawyerInput, { ...VALID_LAWYER, ...change });

      // Assert
      expect(messages[field]).toBe(message);
    });

    it('accepts a phone number of 10 characters and an office name of 2', () => {
      // Act
      const lawyer = LawyerInput.parse({ ...VALID_LAWYER, phoneNumber: '0142000000', officeName: 'CM' });

      // Assert
      expect(lawyer).toMatchObject({ phoneNumber: '0142000000', officeName: 'CM' });
    });

    it('refuses a reminder frequency below 1 day', () => {
      // Act
      const messages = messagesOf(LawyerInput, { ...VALID_LAWYER, reminderFrequency: 0 });

      // Assert
      expect(messages.reminderFrequency).toBe('Le champ reminderFrequency doit être supérieur ou égal à 1');
    });
  });
});
