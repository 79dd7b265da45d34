import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { emptyBackend, jsonResponse, mockNetwork } from '../support/fetch-mock';
import { errorOf, typeInto } from '../support/form-fields';
import { renderApp } from '../support/render-app';
import { storedSession, storeSessionOf } from '../support/sessions';
import { isGet } from '../support/workflow-lists';
import { lawyerFixture } from './fixtures';

/** The messages of spec §5 for the fields every variant shares, with the values that trigger them. */
const SHARED_RULES = [
  ['Prénom', 'J', 'Le prénom doit contenir au moins 2 caractères'],
  ['Nom', 'D', 'Le nom doit contenir au moins 2 caractères'],
  ['Email Google', 'pas-un-email', 'Email invalide'],
  ['Email principal', 'cabinet@', 'Email principal invalide'],
  ['Téléphone', '06123', 'Le numéro de téléphone doit contenir au moins 10 chiffres'],
  ["Nom de l'étude", 'C', "Le nom de l'étude doit contenir au moins 2 caractères"],
] as const;

/** An admin's 'Nouvel avocat' dialog, filled in for Jeanne Durand. */
async function newJeanneDurand() {
  storeSessionOf('admin');
  const app = renderApp('/admin/lawyers');
  await app.user.click(await screen.findByRole('button', { name: 'Nouvel avocat' }));
  await screen.findByRole('dialog');
  await typeInto(app.user, 'Prénom', 'Jeanne');
  await typeInto(app.user, 'Nom', 'Durand');
  await typeInto(app.user, 'Email Google', 'jeanne.durand@gmail.com');
  await typeInto(app.user, 'Téléphone', '0612345678');
  await typeInto(app.user, "Nom de l'étude", 'Cabinet Durand');
  return app;
}

describe('lawyer form (admin, spec §5 lawyer form)', () => {
  async function openCreate() {
    const network = mockNetwork();
    storeSessionOf('admin');
    const app = renderApp('/admin/lawyers');
    await app.user.click(await screen.findByRole('button', { name: 'Nouvel avocat' }));
    await screen.findByRole('dialog');
    return { app, network };
  }

  it('shows each message of the shared rules and sends nothing', async () => {
    const { app, network } = await openCreate();
    for (const [label, value] of SHARED_RULES) await typeInto(app.user, label, value);

    await app.user.click(screen.getByRole('button', { name: 'Créer' }));

    for (const [label, , message] of SHARED_RULES) expect(errorOf(label), label).toBe(message);
    expect(errorOf('Mot de passe Google (facultatif)')).toBeNull();
    expect(network.requests.filter((request) => request.method === 'PUT')).toEqual([]);
  });

  it("creates the lawyer, main e-mail defaulting to the Google one, and says 'Dossier créé pour'", async () => {
    const created = lawyerFixture({ mainEmail: 'jeanne.durand@gmail.com', email: 'jeanne.durand@gmail.com' });
    const network = mockNetwork((request) =>
      request.method === 'PUT' && request.url.endsWith('/api/lawyers')
        ? jsonResponse(201, {
            lawyer: { ...created, firstName: 'Jeanne', lastName: 'Durand' },
            created: true,
          })
        : emptyBackend(request),
    );
    const app = await newJeanneDurand();

    await app.user.click(screen.getByRole('button', { name: 'Créer' }));

    expect(await screen.findByText('Dossier créé pour Jeanne Durand')).toBeVisible();
    const sent = network.to('/api/lawyers').find((request) => request.method === 'PUT')?.body;
    expect(sent).toMatchObject({
      mainEmail: 'jeanne.durand@gmail.com',
      reminderFrequency: 7,
    });
    expect(sent).not.toHaveProperty('licenseKey');
    expect(sent).toHaveProperty('googlePassword', '');
  });
});

describe("'Nouvel avocat' with the e-mail of an existing lawyer", () => {
  it("writes nothing, names him, updates only once confirmed and says 'mis à jour'", async () => {
    const existing = lawyerFixture({ firstName: 'Camille', lastName: 'Martin' });
    const network = mockNetwork((request) => {
      if (request.method !== 'PUT' || !request.url.endsWith('/api/lawyers')) return emptyBackend(request);
      const body = request.body as { createOnly?: boolean; firstName: string };
      return body.createOnly
        ? jsonResponse(409, {
            error: `Camille Martin (${existing.email}) utilise déjà cet email ou cette clé de licence`,
            existingLawyer: {
              id: existing.id,
              firstName: 'Camille',
              lastName: 'Martin',
              email: existing.email,
            },
          })
        : jsonResponse(200, { lawyer: { ...existing, firstName: body.firstName }, created: false });
    });
    storeSessionOf('admin');
    const app = renderApp('/admin/lawyers');
    await app.user.click(await screen.findByRole('button', { name: 'Nouvel avocat' }));
    await screen.findByRole('dialog');
    await typeInto(app.user, 'Prénom', 'Camilla');
    await typeInto(app.user, 'Nom', 'Martin');
    await typeInto(app.user, 'Email Google', existing.email);
    await typeInto(app.user, 'Téléphone', '0612345678');
    await typeInto(app.user, "Nom de l'étude", 'Cabinet Martin');

    await app.user.click(screen.getByRole('button', { name: 'Créer' }));

    expect(await screen.findByText('Mettre à jour Camille Martin ?')).toBeVisible();
    expect(screen.queryByText(/Dossier créé/)).toBeNull();
    const puts = () => network.to('/api/lawyers').filter((request) => request.method === 'PUT');
    expect(puts().map((request) => (request.body as { createOnly: boolean }).createOnly)).toEqual([true]);

    await app.user.click(screen.getByRole('button', { name: 'Mettre à jour Camille Martin' }));

    expect(await screen.findByText('Avocat Camilla Martin mis à jour')).toBeVisible();
    expect(puts().map((request) => (request.body as { createOnly: boolean }).createOnly)).toEqual([
      true,
      false,
    ]);
    expect(puts()[1]?.body).toMatchObject({ firstName: 'Camilla', email: existing.email });
    // The confirmed update is another request than the refused create: another key.
    expect(puts()[1]?.headers['idempotency-key']).not.toBe(puts()[0]?.headers['idempotency-key']);
  });
});

describe("'Nouvel avocat' sent again (Idempotency-Key)", () => {
  const FAILED = "Erreur lors de la création de l'avocat: Service momentanément indisponible";

  it('sends the same lawyer again under the same key after a failure, a corrected one under a new key', async () => {
    let unavailable = true;
    const created = lawyerFixture({
      firstName: 'Jeanne',
      lastName: 'Durand',
      email: 'jeanne.durand@gmail.com',
    });
    const network = mockNetwork((request) => {
      if (request.method !== 'PUT' || !request.url.endsWith('/api/lawyers')) return emptyBackend(request);
      return unavailable
        ? jsonResponse(503, { error: 'Service momentanément indisponible' })
        : jsonResponse(201, { lawyer: created, created: true });
    });
    const app = await newJeanneDurand();
    const puts = () => network.to('/api/lawyers').filter((request) => request.method === 'PUT');
    const create = () => screen.getByRole('button', { name: 'Créer' });
    // While a sending is under way the button spins and a click on it does nothing: the admin
    // clicks again once the failure is shown and the button is back.
    const failedAndReady = () =>
      waitFor(() => {
        expect(screen.getAllByText(FAILED).at(-1)).toBeVisible();
        expect(create()).not.toHaveAttribute('aria-disabled');
      });

    await app.user.click(create());
    await waitFor(() => expect(puts()).toHaveLength(1));
    await failedAndReady();
    await app.user.click(create());
    await waitFor(() => expect(puts()).toHaveLength(2));
    await failedAndReady();
    unavailable = false;
    await typeInto(app.user, "Nom de l'étude", 'Étude Durand');
    await app.user.click(create());

    expect(await screen.findByText('Dossier créé pour Jeanne Durand')).toBeVisible();
    const keys = puts().map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});

describe('lawyer cards (spec §2: main e-mail if different)', () => {
  it("shows 'Email principal' only on the card whose main e-mail differs", async () => {
    const same = lawyerFixture({ firstName: 'Camille', lastName: 'Martin' });
    const other = lawyerFixture({
      id: crypto.randomUUID(),
      firstName: 'Louis',
      lastName: 'Bernard',
      email: 'louis.bernard@gmail.com',
      mainEmail: 'contact@etude-bernard.fr',
    });
    mockNetwork((request) =>
      isGet(request, '/api/lawyers')
        ? jsonResponse(200, { lawyers: [{ ...same, mainEmail: same.email }, other] })
        : emptyBackend(request),
    );
    storeSessionOf('admin');
    renderApp('/admin/lawyers');

    expect(await screen.findByText('contact@etude-bernard.fr')).toBeVisible();
    expect(screen.getAllByText('Email principal')).toHaveLength(1);
  });
});

describe('notary form (/notary/google, spec §5 notary form)', () => {
  it("requires the Google password: 'Le mot de passe Google est requis'", async () => {
    mockNetwork((request) =>
      request.url.endsWith('/api/me')
        ? jsonResponse(200, { profile: null, sessionEmail: 'notaire@etude.fr', sessionEmailChanged: false })
        : emptyBackend(request),
    );
    storeSessionOf('notary');
    const app = renderApp('/notary/google');
    await screen.findByRole('button', { name: 'Enregistrer' });

    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(errorOf('Mot de passe Google')).toBe('Le mot de passe Google est requis');
    expect(errorOf('Prénom')).toBe('Le prénom doit contenir au moins 2 caractères');
  });
});

describe('account configuration (/lawyer/account-config, spec §4)', () => {
  it('keeps the stored Google password when the field is left blank, and updates the session e-mail', async () => {
    const profile = lawyerFixture({ hasGooglePassword: true });
    const network = mockNetwork((request) => {
      if (request.url.endsWith('/api/me')) {
        return request.method === 'GET'
          ? jsonResponse(200, { profile, sessionEmail: profile.email, sessionEmailChanged: false })
          : jsonResponse(200, { profile, sessionEmail: profile.email, sessionEmailChanged: true });
      }
      return emptyBackend(request);
    });
    storeSessionOf('lawyer', { email: 'ancien@cabinet.fr' });
    const app = renderApp('/lawyer/account-config');
    await screen.findByText(
      "Configuration enregistrée : en attente d'activation par l'administrateur. Vos automatisations seront activées sous 24 à 48 heures.",
    );
    await app.user.click(screen.getByRole('button', { name: 'Modifier mes informations' }));

    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(await screen.findByText('Vos informations de compte ont été enregistrées')).toBeVisible();
    const sent = network.to('/api/me').find((request) => request.method === 'PUT')?.body;
    expect(sent).not.toHaveProperty('googlePassword');
    expect(storedSession()).toMatchObject({ email: profile.email, name: 'Camille Martin' });
  });
});
