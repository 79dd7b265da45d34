import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lawyerFixture } from '../back-office/fixtures';
import { openAsMember } from './support';

describe('welcome pages (spec §2)', () => {
  it('tells the lawyer about the calendar and leads to account configuration', async () => {
    const { app } = openAsMember('lawyer', '/lawyer/welcome');

    expect(await screen.findByRole('heading', { level: 1, name: 'Bienvenue' })).toBeVisible();
    expect(screen.getByText(/agenda Google/)).toBeVisible();
    await app.user.click(screen.getByRole('button', { name: 'Configuration compte' }));

    expect(app.pathname()).toBe('/lawyer/account-config');
  });

  it('leads the lawyer to the Google ecosystem guide', async () => {
    const { app } = openAsMember('lawyer', '/lawyer/welcome');

    await app.user.click(await screen.findByRole('button', { name: 'Écosystème Google' }));

    expect(app.pathname()).toBe('/lawyer/google-ecosystem');
  });

  it('gives the notary two buttons: /notary/google and /notary/google-ecosystem', async () => {
    const { app } = openAsMember('notary', '/notary/welcome');

    await app.user.click(await screen.findByRole('button', { name: 'Configuration compte' }));
    expect(app.pathname()).toBe('/notary/google');
  });

  it('leads the notary to his Google guide', async () => {
    const { app } = openAsMember('notary', '/notary/welcome');

    await app.user.click(await screen.findByRole('button', { name: 'Écosystème Google' }));

    expect(app.pathname()).toBe('/notary/google-ecosystem');
  });
});

describe('Google ecosystem guides (spec §2, §3 conventions, §5 guidance)', () => {
  it("names the lawyer's sheets, the drive folders and the 'Pièces' subfolder", async () => {
    openAsMember('lawyer', '/lawyer/google-ecosystem');

    expect(await screen.findByRole('heading', { level: 1, name: 'Écosystème Google' })).toBeVisible();
    const page = document.body.textContent ?? '';
    for (const expected of [
      '« Base de données Avocat »',
      '« Pièces à fournir »',
      '« Clients »',
      '« Fiche Clients »',
      'Nom, Prénom, Adresse mail, Type Affaire, Fichier complet, Mail pièces, Mail client',
      '« Base de données FAQ »',
      'Question fréquente, Réponse de l’IA',
      'date d’audience et la juridiction',
      'sous-dossier « Pièces »',
      'agenda Google',
      'Désactivez la double authentification',
    ]) {
      expect(page, expected).toContain(expected);
    }
    for (const folder of ['Dossier', 'Dossier Clients', 'Non pdf']) {
      expect(screen.getByText(folder, { selector: 'li' })).toBeVisible();
    }
  });

  it("gives the notary the 'Base de données Notaire' sheet and the attachments notice", async () => {
    openAsMember('notary', '/notary/google-ecosystem');

    await screen.findByRole('heading', { level: 1, name: 'Écosystème Google' });
    const page = document.body.textContent ?? '';
    expect(page).toContain(
      '« Base de données Notaire » : Type affaire, Pièces obligatoires à fournir par le client.',
    );
    expect(page).toContain('Ne déplacez pas les pièces jointes');
    expect(page).toContain('Un tiret dans la colonne « Mail pièces » désactive les relances');
    expect(page).not.toContain('Base de données Avocat');
  });
});

describe('notary settings (/notary/settings, spec §2)', () => {
  it('shows the licence, the personal information, the application version and last update', async () => {
    const profile = lawyerFixture({
      firstName: 'Claire',
      lastName: 'Dubois',
      email: 'etude.dubois@gmail.com',
    });
    const { session } = openAsMember('notary', '/notary/settings', { profile });

    expect(await screen.findByText('Claire Dubois')).toBeVisible();
    expect(screen.getByText(session.licenseKey)).toBeVisible();
    expect(screen.getByText('Avocat - Accès complet')).toBeVisible();
    expect(screen.getByText('etude.dubois@gmail.com')).toBeVisible();
    expect(screen.getByText('20/11/2026')).toBeVisible();
    expect(screen.getByText('1.0.0')).toBeVisible();
    expect(screen.getByText('21 mai 2025')).toBeVisible();
    expect(screen.getByText('Support')).toBeVisible();
  });

  it('asks a notary without a profile to complete it in the Google configuration tab', async () => {
    const { app } = openAsMember('notary', '/notary/settings', { profile: null });

    await screen.findByText(/Aucun profil trouvé : complétez vos informations/);
    const hint = app.wrapper
      .findAllAlerts()
      .find((alert) => alert.getElement().textContent?.includes('Aucun profil trouvé'));
    await app.user.click(
      within(hint?.getElement() ?? document.createElement('div')).getByRole('link', {
        name: 'Configuration Google',
      }),
    );

    expect(app.pathname()).toBe('/notary/google');
  });
});
