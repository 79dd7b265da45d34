import { describe, expect, it } from 'vitest';

import { licenseKeyResentEmail } from '../../../../functions/domain/billing/emails';

const LICENSE_KEY = 'CABINET-AB12CD34';
const message = licenseKeyResentEmail({
  to: 'cabinet@exemple.fr',
  licenseKey: LICENSE_KEY,
  loginUrl: 'https://assistant.exemple.fr/login',
});

describe('the licence key sent again by the admin', () => {
  it('goes to the licence address with its own French subject', () => {
    expect(message.to).toBe('cabinet@exemple.fr');
    expect(message.subject).toBe('Assistant IA juridique : votre clé de licence (nouvel envoi)');
  });

  it('gives the key, the sign-in page and how to keep it, without a word about a payment', () => {
    expect(message.text.split('\n\n')).toEqual([
      'Bonjour,',
      'Voici de nouveau votre clé de licence Assistant IA juridique : notre premier envoi ne vous est peut-être pas parvenu.',
      `Votre clé de licence : ${LICENSE_KEY}`,
      'Pour vous connecter, saisissez cette clé sur la page de connexion : https://assistant.exemple.fr/login',
      'Conservez-la précieusement et ne la communiquez à personne : elle donne accès à votre espace.',
      "Si vous n'attendiez pas cet e-mail, répondez-y pour prévenir le support.",
      "Cordialement,\nL'équipe Assistant IA juridique",
    ]);
    expect(message.text).not.toMatch(/paiement|prélev/);
  });
});
