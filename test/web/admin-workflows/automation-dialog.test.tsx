import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { DEFAULT_RUNTIME_CONFIG, setRuntimeConfig } from '../../../web/src/config/runtime-config';
import { lawyerFixture, workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { choose, errorOf, formField, inputOf } from '../support/form-fields';
import { countsReply, isGet } from '../support/workflow-lists';
import { mockAdminBackend } from './admin-backend';
import { cardAction, cardOf, dialogButton, openAdminWorkflows, openCreateDialog } from './admin-page';

const LAWYER = lawyerFixture();

/** Replaces a field's text at once (a paste): the rules, not the keystrokes, are under test. */
async function fill(app: ReturnType<typeof openAdminWorkflows>, label: string, value: string) {
  await app.user.clear(inputOf(label));
  if (value) await app.user.paste(value);
}

/** Valid values everywhere, so that a test breaks exactly one rule. */
async function fillValidForm(app: ReturnType<typeof openAdminWorkflows>) {
  await fill(app, 'Nom', 'Gestion des e-mails');
  await fill(app, 'Description', 'Trie les e-mails reçus par le cabinet');
  await fill(app, 'URL du webhook', 'https://n8n.cabinet.fr/webhook/gestion');
  await choose('Client (avocat)', LAWYER.email);
}

async function openWithOneLawyer() {
  const backend = mockAdminBackend({ lawyers: [LAWYER] });
  const app = openAdminWorkflows();
  await openCreateDialog(app);
  // The lawyers arrive after the dialog opens: wait until the submit is usable.
  await waitFor(() => expect(dialogButton('Créer').disabled).toBe(false));
  await fillValidForm(app);
  return { app, backend };
}

describe('automation form messages (spec §5)', () => {
  it.each([
    ['Nom', 'ab', 'Le nom doit contenir au moins 3 caractères'],
    ['Nom', '  a  ', 'Le nom doit contenir au moins 3 caractères'],
    ['Description', 'neuf lett', 'La description doit contenir au moins 10 caractères'],
    ['URL du webhook', 'pas une adresse', 'Veuillez entrer une URL valide'],
    ['URL du webhook', 'ftp://n8n.cabinet.fr/webhook', 'Veuillez entrer une URL valide'],
    ['URL du webhook', 'javascript:alert(1)', 'Veuillez entrer une URL valide'],
  ])('%s = %j: %s, and nothing is sent', async (label, value, message) => {
    const { app, backend } = await openWithOneLawyer();
    await fill(app, label, value);

    await app.user.click(dialogButton('Créer'));

    expect(errorOf(label)).toBe(message);
    expect(backend.sent('POST', '/api/workflows')).toEqual([]);
  });

  it.each([
    ['Nom', 'abc'],
    ['Description', 'dix lettre'],
    ['URL du webhook', 'http://n8n.cabinet.fr/webhook'],
  ])('%s = %j is accepted at the bound', async (label, value) => {
    const { app, backend } = await openWithOneLawyer();
    await fill(app, label, value);

    await app.user.click(dialogButton('Créer'));

    expect(await screen.findByText('Automatisation créée')).toBeVisible();
    expect(backend.sent('POST', '/api/workflows')).toHaveLength(1);
  });

  it("says 'Veuillez sélectionner un avocat' when no lawyer is chosen", async () => {
    mockAdminBackend({ lawyers: [LAWYER] });
    const app = openAdminWorkflows();
    await openCreateDialog(app);
    await waitFor(() => expect(dialogButton('Créer').disabled).toBe(false));

    await app.user.click(dialogButton('Créer'));

    expect(errorOf('Client (avocat)')).toBe('Veuillez sélectionner un avocat');
  });

  it('shows no message before the first submit, then follows the typing', async () => {
    const { app } = await openWithOneLawyer();
    await fill(app, 'Nom', 'ab');
    expect(errorOf('Nom')).toBeNull();

    await app.user.click(dialogButton('Créer'));
    expect(errorOf('Nom')).toBe('Le nom doit contenir au moins 3 caractères');
    await fill(app, 'Nom', 'abc');

    expect(errorOf('Nom')).toBeNull();
  });

  it("refuses, on submit, a lawyer who is not in the loaded list: 'L'avocat sélectionné n'existe pas…'", async () => {
    // Arrange: an automation whose lawyer has since left the directory.
    const workflow = workflowFixture({ lawyerEmail: 'parti@cabinet.fr' });
    const backend = mockAdminBackend({ lawyers: [LAWYER], workflows: [workflow] });
    const app = openAdminWorkflows();
    await cardAction(app, workflow.name, 'Modifier');
    await screen.findByRole('dialog');
    await waitFor(() => expect(dialogButton('Enregistrer').disabled).toBe(false));

    // Act
    await app.user.click(dialogButton('Enregistrer'));

    // Assert
    expect(errorOf('Client (avocat)')).toBe("L'avocat sélectionné n'existe pas dans notre base de données");
    expect(backend.sent('PUT', `/api/workflows/${workflow.id}`)).toEqual([]);
  });
});

describe('tags and category (spec §2 card, §3 optional display fields)', () => {
  it('sends the category and the comma-separated tags, then shows them on the new card', async () => {
    // Arrange
    const { app, backend } = await openWithOneLawyer();
    await fill(app, 'Catégorie (facultatif)', '  Droit de la famille ');
    await fill(app, 'Étiquettes (facultatif)', 'urgent, , divorce ,');

    // Act
    await app.user.click(dialogButton('Créer'));

    // Assert
    expect(await screen.findByText('Automatisation créée')).toBeVisible();
    expect(backend.sent('POST', '/api/workflows')[0]?.body).toMatchObject({
      tags: ['urgent', 'divorce'],
      category: 'Droit de la famille',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const card = within(cardOf('Gestion des e-mails'));
    expect(card.getByText('Droit de la famille')).toBeVisible();
    expect(card.getByText('urgent')).toBeVisible();
    expect(card.getByText('divorce')).toBeVisible();
  });

  it.each([
    ['Catégorie (facultatif)', 'x'.repeat(41), 'La catégorie doit contenir au plus 40 caractères'],
    [
      'Étiquettes (facultatif)',
      Array.from({ length: 11 }, (_, index) => `e${index}`).join(', '),
      'Les étiquettes sont limitées à 10, de 30 caractères au plus chacune',
    ],
    [
      'Étiquettes (facultatif)',
      `urgent, ${'x'.repeat(31)}`,
      'Les étiquettes sont limitées à 10, de 30 caractères au plus chacune',
    ],
  ])('%s = %j: the field says why, and nothing is sent', async (label, value, message) => {
    const { app, backend } = await openWithOneLawyer();
    await fill(app, label, value);

    await app.user.click(dialogButton('Créer'));

    expect(errorOf(label)).toBe(message);
    expect(backend.sent('POST', '/api/workflows')).toEqual([]);
  });

  it('accepts the bounds: 10 tags of 30 characters and a category of 40', async () => {
    const { app, backend } = await openWithOneLawyer();
    const tags = Array.from({ length: 10 }, (_, index) => `${index}`.padEnd(30, 'x'));
    await fill(app, 'Catégorie (facultatif)', 'c'.repeat(40));
    await fill(app, 'Étiquettes (facultatif)', tags.join(','));

    await app.user.click(dialogButton('Créer'));

    expect(await screen.findByText('Automatisation créée')).toBeVisible();
    expect(backend.sent('POST', '/api/workflows')[0]?.body).toMatchObject({ tags, category: 'c'.repeat(40) });
  });
});

describe('automation form without lawyers', () => {
  it("says 'Aucun client disponible…' and keeps the submit disabled when no lawyer exists", async () => {
    mockAdminBackend({ lawyers: [] });
    const app = openAdminWorkflows();
    await openCreateDialog(app);

    expect(
      await screen.findByText("Aucun client disponible. Veuillez d'abord créer un client."),
    ).toBeVisible();
    expect(dialogButton('Créer').disabled).toBe(true);
  });

  it('keeps the submit disabled until the server says lawyers exist, and shows no warning meanwhile', async () => {
    // The server's count of lawyers says whether any exists; it is held back here.
    let answer: (response: Response) => void = () => undefined;
    mockAdminBackend({ lawyers: [LAWYER] }, (request) =>
      isGet(request, '/api/counts')
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : undefined,
    );
    const app = openAdminWorkflows();
    await openCreateDialog(app);

    expect(dialogButton('Créer').disabled).toBe(true);
    expect(screen.queryByText("Aucun client disponible. Veuillez d'abord créer un client.")).toBeNull();
    answer(countsReply([], 1, 0));
    await waitFor(() => expect(dialogButton('Créer').disabled).toBe(false));
  });

  it("says 'Impossible de charger la liste des avocats' when the lawyers cannot be listed", async () => {
    mockAdminBackend({}, (request) =>
      isGet(request, '/api/lawyers') ? jsonResponse(500, { error: 'Erreur interne.' }) : undefined,
    );
    const app = openAdminWorkflows();
    await openCreateDialog(app);

    expect(await screen.findByText('Impossible de charger la liste des avocats')).toBeVisible();
  });
});

describe('type templates (create mode pre-fill)', () => {
  afterEach(() => {
    setRuntimeConfig(DEFAULT_RUNTIME_CONFIG);
  });

  it.each([
    ['client_management', 'Gestion Client', 'webhook/gestion-client'],
    ['document_classification', 'Classement des Pièces', 'webhook/classement-pieces'],
    ['client_reminder', 'Relance Dossier Client', 'webhook/relance-dossier'],
  ])('%s pre-fills %j and the webhook under the configured engine', async (type, name, path) => {
    setRuntimeConfig({ ...DEFAULT_RUNTIME_CONFIG, workflowWebhookBaseUrl: 'https://moteur.cabinet.fr' });
    mockAdminBackend({ lawyers: [LAWYER] });
    const app = openAdminWorkflows();
    await openCreateDialog(app);
    // Start from another type so that every case changes the values.
    await choose(
      "Type d'automatisation",
      type === 'client_reminder' ? 'client_management' : 'client_reminder',
    );

    await choose("Type d'automatisation", type);

    await waitFor(() => expect(inputOf('Nom').value).toBe(name));
    expect(inputOf('Description').value.trim().length).toBeGreaterThanOrEqual(10);
    expect(inputOf('URL du webhook').value).toBe(`https://moteur.cabinet.fr/${path}`);
  });

  it('pre-fills the first type when the dialog opens, with a valid form once a lawyer is chosen', async () => {
    const backend = mockAdminBackend({ lawyers: [LAWYER] });
    const app = openAdminWorkflows();
    await openCreateDialog(app);
    await waitFor(() => expect(dialogButton('Créer').disabled).toBe(false));
    await choose('Client (avocat)', LAWYER.email);

    await app.user.click(dialogButton('Créer'));

    expect(await screen.findByText('Automatisation créée')).toBeVisible();
    expect(backend.sent('POST', '/api/workflows')[0]?.body).toMatchObject({
      name: 'Gestion Client',
      type: 'client_management',
      webhookUrl: expect.stringMatching(/^https:\/\/.+\/webhook\/gestion-client$/),
    });
  });

  it('keeps the typed values when the type changes in edit mode', async () => {
    const workflow = workflowFixture({ lawyerEmail: LAWYER.email });
    mockAdminBackend({ lawyers: [LAWYER], workflows: [workflow] });
    const app = openAdminWorkflows();
    await cardAction(app, workflow.name, 'Modifier');
    await screen.findByRole('dialog');

    await choose("Type d'automatisation", 'document_classification');

    expect(inputOf('Nom').value).toBe(workflow.name);
    expect(inputOf('URL du webhook').value).toBe(workflow.webhookUrl);
    expect(formField('Client (avocat)').findControl()?.findSelect()?.isDisabled()).toBe(true);
  });
});
