import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Lawyer } from '../../../shared';
import { lawyerFixture, workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { errorOf, formField, inputOf, typeInto } from '../support/form-fields';
import { storedSession } from '../support/sessions';
import { openAsMember } from './support';

const BANNERS = {
  pending:
    "Configuration enregistrée : en attente d'activation par l'administrateur. Vos automatisations seront activées sous 24 à 48 heures.",
  disabled: 'Compte configuré, mais vos automatisations sont actuellement désactivées.',
  integrated: 'Automatisations configurées et intégrées',
} as const;

/** The text of every alert on the page. */
function alerts(): string[] {
  return createWrapper(document.body)
    .findAllAlerts()
    .map((alert) => alert.getElement().textContent ?? '');
}

const active = workflowFixture({ active: true });
const inactive = workflowFixture({ id: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0cc', name: 'Tri', active: false });

describe('account configuration banners (spec §4)', () => {
  it.each([
    ['no workflow yet: waiting for the administrator, 24 to 48 hours', [], BANNERS.pending],
    ['every workflow inactive: configured but disabled', [inactive], BANNERS.disabled],
    ['one workflow active: configured and integrated', [active, inactive], BANNERS.integrated],
  ])('%s', async (_, workflows, banner) => {
    openAsMember('lawyer', '/lawyer/account-config', { profile: lawyerFixture(), workflows });

    await screen.findByRole('button', { name: 'Modifier mes informations' });
    await waitFor(() => expect(alerts()).toContain(banner));
    for (const other of Object.values(BANNERS).filter((text) => text !== banner)) {
      expect(alerts()).not.toContain(other);
    }
    expect(screen.queryByRole('button', { name: 'Enregistrer' })).toBeNull();
  });

  it("shows the integrated badge on the google path's active cards, the pending one elsewhere", async () => {
    openAsMember('lawyer', '/lawyer/google', { profile: lawyerFixture(), workflows: [active, inactive] });

    await screen.findByRole('heading', { name: 'Vos automatisations' });
    // Once in the banner, once as the active card's badge: the cards are another read than the
    // counts that show the heading, and may be drawn after it.
    await waitFor(() => expect(screen.getAllByText(BANNERS.integrated)).toHaveLength(2));
    expect(await screen.findByText("En attente d'activation par l'administrateur")).toBeVisible();
  });

  it('reopens the form with the stored values on the edit button, and closes it on Annuler', async () => {
    const { app } = openAsMember('notary', '/notary/google', { profile: lawyerFixture(), workflows: [] });

    await app.user.click(await screen.findByRole('button', { name: 'Modifier mes informations' }));
    expect(inputOf('Prénom').value).toBe('Camille');
    await app.user.click(screen.getByRole('button', { name: 'Annuler' }));

    expect(await screen.findByRole('button', { name: 'Modifier mes informations' })).toBeVisible();
  });
});

describe('account configuration form (spec §5)', () => {
  it('shows every lawyer message, leaves the Google password optional and sends nothing', async () => {
    const { app, network } = openAsMember('lawyer', '/lawyer/account-config', { profile: null });
    await screen.findByRole('button', { name: 'Enregistrer' });
    expect(alerts()).toContain(
      'Complétez vos informations pour que l’administrateur configure vos automatisations.',
    );
    await typeInto(app.user, 'Prénom', 'J');
    await typeInto(app.user, 'Nom', 'D');
    await typeInto(app.user, 'Email Google', 'pas-un-email');
    await typeInto(app.user, 'Email principal', 'cabinet@');
    await typeInto(app.user, 'Téléphone', '061234');
    await typeInto(app.user, "Nom de l'étude", 'C');

    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(errorOf('Prénom')).toBe('Le prénom doit contenir au moins 2 caractères');
    expect(errorOf('Nom')).toBe('Le nom doit contenir au moins 2 caractères');
    expect(errorOf('Email Google')).toBe('Email invalide');
    expect(errorOf('Email principal')).toBe('Email principal invalide');
    expect(errorOf('Téléphone')).toBe('Le numéro de téléphone doit contenir au moins 10 chiffres');
    expect(errorOf("Nom de l'étude")).toBe("Le nom de l'étude doit contenir au moins 2 caractères");
    expect(errorOf('Mot de passe Google (facultatif)')).toBeNull();
    expect(network.requests.filter((request) => request.method === 'PUT')).toEqual([]);
  });

  it('offers a reminder frequency from 1 to 30 days, 7 by default, to the lawyer', async () => {
    openAsMember('lawyer', '/lawyer/account-config', { profile: null });
    await screen.findByRole('button', { name: 'Enregistrer' });
    const select = formField('Fréquence de relance').findControl()?.findSelect();
    if (!select) throw new Error('Pas de liste de fréquence');

    expect(select.findTrigger().getElement().textContent).toContain('7 jours');
    act(() => select.openDropdown());
    const options = select
      .findDropdown()
      .findOptions()
      .map((option) => option.getElement().textContent);
    expect(options).toHaveLength(30);
    expect(options[0]).toContain('1 jour');
    expect(options[29]).toContain('30 jours');
  });

  it("requires the notary's Google password and a reminder frequency of at least 1 day", async () => {
    const { app, network } = openAsMember('notary', '/notary/google', { profile: null });
    await screen.findByRole('button', { name: 'Enregistrer' });
    await typeInto(app.user, 'Fréquence de relance', '0');

    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(errorOf('Mot de passe Google')).toBe('Le mot de passe Google est requis');
    expect(errorOf('Fréquence de relance')).toBe('Required');
    expect(errorOf('Prénom')).toBe('Le prénom doit contenir au moins 2 caractères');
    expect(errorOf('Nom')).toBe('Le nom doit contenir au moins 2 caractères');
    expect(errorOf('Téléphone')).toBe('Le numéro de téléphone doit contenir au moins 10 chiffres');
    expect(errorOf("Nom de l'étude")).toBe("Le nom de l'étude doit contenir au moins 2 caractères");
    expect(network.requests.filter((request) => request.method === 'PUT')).toEqual([]);
  });

  it('saves a first profile, says so, then shows it with the waiting banner', async () => {
    let stored: Lawyer | null = null;
    const { app, network, session } = openAsMember(
      'notary',
      '/notary/google',
      {
        profile: null,
        override: (request) => {
          if (!request.url.endsWith('/api/me') || request.method !== 'PUT') return undefined;
          stored = lawyerFixture({
            firstName: 'Claire',
            lastName: 'Dubois',
            email: 'etude.dubois@gmail.com',
          });
          return jsonResponse(200, {
            profile: stored,
            sessionEmail: stored.email,
            sessionEmailChanged: true,
          });
        },
      },
      { email: 'notaire@etude.fr' },
    );
    await screen.findByRole('button', { name: 'Enregistrer' });
    // The session's e-mail is offered as the Google e-mail of a first profile.
    expect(inputOf('Email Google').value).toBe(session.email);
    await typeInto(app.user, 'Prénom', 'Claire');
    await typeInto(app.user, 'Nom', 'Dubois');
    await typeInto(app.user, 'Email Google', 'etude.dubois@gmail.com');
    await typeInto(app.user, 'Téléphone', '0612345678');
    await typeInto(app.user, "Nom de l'étude", 'Étude Dubois');
    await typeInto(app.user, 'Mot de passe Google', 'mot-de-passe-fort');

    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(await screen.findByText('Vos informations de compte ont été enregistrées')).toBeVisible();
    expect(network.to('/api/me').find((request) => request.method === 'PUT')?.body).toMatchObject({
      firstName: 'Claire',
      lastName: 'Dubois',
      email: 'etude.dubois@gmail.com',
      googlePassword: 'mot-de-passe-fort',
      officeName: 'Étude Dubois',
    });
    expect(stored).not.toBeNull();
    expect(await screen.findByRole('button', { name: 'Modifier mes informations' })).toBeVisible();
    expect(alerts()).toContain(BANNERS.pending);
    expect(storedSession()).toMatchObject({ email: 'etude.dubois@gmail.com', name: 'Claire Dubois' });
  });

  it("says 'Erreur lors de l'enregistrement de vos informations' with the server's reason", async () => {
    const { app } = openAsMember('lawyer', '/lawyer/account-config', {
      profile: lawyerFixture(),
      override: (request) =>
        request.url.endsWith('/api/me') && request.method === 'PUT'
          ? jsonResponse(409, { error: 'Cette adresse e-mail est déjà utilisée' })
          : undefined,
    });
    await app.user.click(await screen.findByRole('button', { name: 'Modifier mes informations' }));

    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(
      await screen.findByText(
        "Erreur lors de l'enregistrement de vos informations : Cette adresse e-mail est déjà utilisée",
      ),
    ).toBeVisible();
    // The form stays open for a correction.
    expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeVisible();
  });

  it("says 'Erreur lors du chargement de vos informations' when the profile cannot be read", async () => {
    openAsMember('lawyer', '/lawyer/account-config', {
      override: (request) =>
        request.url.endsWith('/api/me') ? jsonResponse(500, { error: 'Erreur interne' }) : undefined,
    });

    await waitFor(() => expect(alerts()).toContain('Erreur lors du chargement de vos informations'));
    expect(screen.queryByRole('button', { name: 'Enregistrer' })).toBeNull();
  });
});

describe('account configuration session and licence (spec §2, §4)', () => {
  it('brings the session e-mail in line with the profile found on load', async () => {
    const profile = lawyerFixture({ email: 'camille.martin.cabinet@gmail.com' });
    openAsMember('lawyer', '/lawyer/account-config', { profile }, { email: 'ancienne@cabinet.fr' });

    await screen.findByRole('button', { name: 'Modifier mes informations' });

    await waitFor(() =>
      expect(storedSession()).toMatchObject({
        email: 'camille.martin.cabinet@gmail.com',
        name: 'Camille Martin',
      }),
    );
  });

  it("shows the session's licence key", async () => {
    const { session } = openAsMember('lawyer', '/lawyer/account-config', { profile: lawyerFixture() });

    expect(await screen.findByText(session.licenseKey)).toBeVisible();
  });

  it('falls back to the demo key when the session carries none', async () => {
    openAsMember('lawyer', '/lawyer/account-config', { profile: lawyerFixture() }, { licenseKey: '' });

    expect(await screen.findByText('NOTARY-DEMO0000')).toBeVisible();
  });
});
