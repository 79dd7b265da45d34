import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { WORKFLOW_TEMPLATES } from '../../../web/src/config/workflow-templates';
import { lawyerFixture, workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { choose, formField, inputOf } from '../support/form-fields';
import { isGet } from '../support/workflow-lists';
import { folderFixture, mockAdminBackend } from './admin-backend';
import {
  cardAction,
  cardOf,
  cardTitles,
  dialogButton,
  openAdminWorkflows,
  openCreateDialog,
} from './admin-page';

const LAWYER = lawyerFixture();

describe('all automations tab', () => {
  it('shows each card with its type, scheduling, state and owning lawyer', async () => {
    const scheduled = workflowFixture({
      id: crypto.randomUUID(),
      name: 'Gestion des e-mails',
      type: 'client_management',
      active: false,
      cronSettings: { enabled: true, interval: 2, lastRun: null, nextRun: null },
      tags: ['urgent'],
      category: 'Contentieux',
    });
    const idle = workflowFixture({ id: crypto.randomUUID(), lawyerEmail: 'inconnu@cabinet.fr' });
    mockAdminBackend({ lawyers: [LAWYER], workflows: [scheduled, idle] });

    openAdminWorkflows();

    await screen.findByText(scheduled.name);
    const first = within(cardOf(scheduled.name));
    expect(first.getByText('Gestion Client')).toBeVisible();
    expect(first.getByText('Planifié (2 min)')).toBeVisible();
    expect(first.getByText('Inactif')).toBeVisible();
    expect(first.getByText('urgent')).toBeVisible();
    expect(first.getByText('Contentieux')).toBeVisible();
    expect(first.getByText(`Camille Martin (${LAWYER.email})`)).toBeVisible();
    const second = within(cardOf(idle.name));
    expect(second.getByText('Relance Dossier Client')).toBeVisible();
    expect(second.getByText('Non planifié')).toBeVisible();
    expect(second.getByText('Actif')).toBeVisible();
    expect(second.getByText('inconnu@cabinet.fr')).toBeVisible();
    expect(second.getByRole('button', { name: `Exécuter ${idle.name}` })).toBeVisible();
    expect(second.getByRole('button', { name: /Historique/ })).toBeVisible();
  });

  it('shows the loading skeleton until the automations arrive', async () => {
    const workflow = workflowFixture();
    let answer: (response: Response) => void = () => undefined;
    mockAdminBackend({}, (request) =>
      isGet(request, '/api/workflows')
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : undefined,
    );
    openAdminWorkflows();

    expect(await screen.findByText('Chargement des automatisations')).toBeVisible();
    expect(createWrapper(document.body).findCards()).toBeNull();
    answer(jsonResponse(200, { workflows: [workflow], nextCursor: null, owners: [] }));
    await waitFor(() => expect(cardTitles()).toEqual([workflow.name]));
    expect(screen.queryByText('Chargement des automatisations')).toBeNull();
  });

  it('searches over name and description, ignoring accents', async () => {
    const mails = workflowFixture({
      id: crypto.randomUUID(),
      name: 'Tri des e-mails',
      description: 'Classe le courrier reçu',
    });
    const pieces = workflowFixture({
      id: crypto.randomUUID(),
      name: 'Pièces',
      description: 'Renomme les pièces',
    });
    mockAdminBackend({ workflows: [mails, pieces] });
    openAdminWorkflows();
    await screen.findByText(mails.name);
    const filter = () => createWrapper(document.body).findCards()!.findTextFilter()!.findInput();

    filter().setInputValue('recu');
    await waitFor(() => expect(cardTitles()).toEqual([mails.name]));
    filter().setInputValue('PIECES');
    await waitFor(() => expect(cardTitles()).toEqual([pieces.name]));
    filter().setInputValue('aucune correspondance');

    expect(await screen.findByText('Aucune automatisation ne correspond à la recherche')).toBeVisible();
  });

  it("offers 'Nouvelle Automatisation' in the empty state, on /admin/workflows-new as well", async () => {
    mockAdminBackend({ lawyers: [LAWYER] });
    const app = openAdminWorkflows('/admin/workflows-new');

    expect(await screen.findByText('Aucune automatisation')).toBeVisible();
    const buttons = screen.getAllByRole('button', { name: 'Nouvelle Automatisation' });
    expect(buttons).toHaveLength(2);
    await app.user.click(buttons[1]!);
    expect(within(await screen.findByRole('dialog')).getByText('Nouvelle Automatisation')).toBeVisible();
  });
});

describe('create and edit', () => {
  it('creates an active automation with scheduling off, says so and shows its card', async () => {
    const backend = mockAdminBackend({ lawyers: [LAWYER] });
    const app = openAdminWorkflows();
    await openCreateDialog(app);
    await waitFor(() => expect(dialogButton('Créer').disabled).toBe(false));
    await choose("Type d'automatisation", 'client_reminder');
    await choose('Client (avocat)', LAWYER.email);

    await app.user.click(dialogButton('Créer'));

    expect(await screen.findByText('Automatisation créée')).toBeVisible();
    const [sent] = backend.sent('POST', '/api/workflows');
    expect(sent?.body).toEqual({
      name: 'Relance Dossier Client',
      description: WORKFLOW_TEMPLATES.client_reminder.description,
      webhookUrl: expect.stringMatching(/\/webhook\/relance-dossier$/),
      lawyerEmail: LAWYER.email,
      type: 'client_reminder',
      folderId: null,
      tags: [],
      category: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cardTitles()).toEqual(['Relance Dossier Client']);
    expect(within(cardOf('Relance Dossier Client')).getByText('Non planifié')).toBeVisible();
  });

  it("says 'Erreur lors de la création de l'automatisation' with the server's reason and keeps the dialog", async () => {
    mockAdminBackend({ lawyers: [LAWYER] }, (request) =>
      request.method === 'POST' && request.url.endsWith('/api/workflows')
        ? jsonResponse(400, { error: 'URL du webhook invalide' })
        : undefined,
    );
    const app = openAdminWorkflows();
    await openCreateDialog(app);
    await waitFor(() => expect(dialogButton('Créer').disabled).toBe(false));
    await choose('Client (avocat)', LAWYER.email);

    await app.user.click(dialogButton('Créer'));

    expect(
      await screen.findByText("Erreur lors de la création de l'automatisation : URL du webhook invalide"),
    ).toBeVisible();
    expect(screen.getByRole('dialog')).toBeVisible();
  });

  it("edits with the lawyer locked, keeps the scheduling, says so, then 'Automatisation mise à jour'", async () => {
    const workflow = workflowFixture({
      lawyerEmail: LAWYER.email,
      cronSettings: { enabled: true, interval: 1, lastRun: null, nextRun: null },
      tags: ['urgent', 'divorce'],
      category: 'Droit de la famille',
    });
    const backend = mockAdminBackend({
      lawyers: [LAWYER, lawyerFixture({ id: crypto.randomUUID(), email: 'autre@cabinet.fr' })],
      workflows: [workflow],
    });
    const app = openAdminWorkflows();
    await cardAction(app, workflow.name, 'Modifier');
    const dialog = within(await screen.findByRole('dialog'));
    expect(formField('Client (avocat)').findControl()?.findSelect()?.isDisabled()).toBe(true);
    expect(inputOf('Nom').value).toBe(workflow.name);
    expect(inputOf('Catégorie (facultatif)').value).toBe('Droit de la famille');
    expect(inputOf('Étiquettes (facultatif)').value).toBe('urgent, divorce');
    expect(
      dialog.getByText("La planification reste active (toutes les minutes) après l'enregistrement."),
    ).toBeVisible();
    await app.user.clear(inputOf('Nom'));
    await app.user.paste('Relance hebdomadaire');

    await app.user.click(dialogButton('Enregistrer'));

    expect(await screen.findByText('Automatisation mise à jour')).toBeVisible();
    expect(backend.sent('PUT', `/api/workflows/${workflow.id}`)[0]?.body).toEqual({
      name: 'Relance hebdomadaire',
      description: workflow.description,
      webhookUrl: workflow.webhookUrl,
      lawyerEmail: LAWYER.email,
      type: workflow.type,
      folderId: null,
      tags: ['urgent', 'divorce'],
      category: 'Droit de la famille',
    });
    await waitFor(() => expect(cardTitles()).toEqual(['Relance hebdomadaire']));
    expect(within(cardOf('Relance hebdomadaire')).getByText('Planifié (1 min)')).toBeVisible();
  });

  it('warns before saving that a new webhook address stops the scheduling', async () => {
    const workflow = workflowFixture({
      lawyerEmail: LAWYER.email,
      cronSettings: { enabled: true, interval: 1, lastRun: null, nextRun: null },
    });
    mockAdminBackend({ lawyers: [LAWYER], workflows: [workflow] });
    const app = openAdminWorkflows();
    await cardAction(app, workflow.name, 'Modifier');
    const dialog = within(await screen.findByRole('dialog'));
    await app.user.clear(inputOf('URL du webhook'));
    await app.user.paste('https://n8n.cabinet.fr/webhook/nouvelle-adresse');

    expect(
      dialog.getByText(/L'URL du webhook change : l'enregistrement désactive la planification/),
    ).toBeVisible();
    await app.user.click(dialogButton('Enregistrer'));

    expect(await screen.findByText('Automatisation mise à jour')).toBeVisible();
    expect(within(cardOf(workflow.name)).getByText('Non planifié')).toBeVisible();
  });

  it('says an unscheduled automation stays unscheduled', async () => {
    const workflow = workflowFixture({ lawyerEmail: LAWYER.email });
    mockAdminBackend({ lawyers: [LAWYER], workflows: [workflow] });
    const app = openAdminWorkflows();
    await cardAction(app, workflow.name, 'Modifier');
    const dialog = within(await screen.findByRole('dialog'));

    expect(dialog.getByText(/La planification reste désactivée/)).toBeVisible();
  });

  it("says 'Erreur lors de la mise à jour de l'automatisation' when the update fails", async () => {
    const workflow = workflowFixture({ lawyerEmail: LAWYER.email });
    mockAdminBackend({ lawyers: [LAWYER], workflows: [workflow] }, (request) =>
      request.method === 'PUT' ? jsonResponse(404, { error: 'Automatisation introuvable' }) : undefined,
    );
    const app = openAdminWorkflows();
    await cardAction(app, workflow.name, 'Modifier');
    await screen.findByRole('dialog');
    await waitFor(() => expect(dialogButton('Enregistrer').disabled).toBe(false));

    await app.user.click(dialogButton('Enregistrer'));

    expect(
      await screen.findByText(
        "Erreur lors de la mise à jour de l'automatisation : Automatisation introuvable",
      ),
    ).toBeVisible();
  });

  it("'Ajouter au Dossier' can also create a new automation in the selected folder", async () => {
    const folder = folderFixture();
    const backend = mockAdminBackend({ lawyers: [LAWYER], folders: [folder] });
    const app = openAdminWorkflows();
    await app.user.click(await screen.findByRole('tab', { name: 'Dossiers' }));
    expect(screen.queryByRole('button', { name: 'Ajouter au Dossier' })).toBeNull();
    await app.user.click(await screen.findByRole('radio', { name: `Ouvrir le dossier ${folder.name}` }));
    await app.user.click(screen.getByRole('button', { name: 'Ajouter au Dossier' }));
    await app.user.click(dialogButton('Nouvelle automatisation dans ce dossier'));
    await screen.findByRole('dialog', { name: 'Nouvelle Automatisation' });
    await waitFor(() => expect(dialogButton('Créer').disabled).toBe(false));
    await choose('Client (avocat)', LAWYER.email);

    await app.user.click(dialogButton('Créer'));

    expect(await screen.findByText('Automatisation créée')).toBeVisible();
    expect(backend.sent('POST', '/api/workflows')[0]?.body).toMatchObject({ folderId: folder.id });
  });
});

describe('delete', () => {
  it("asks for confirmation, deletes, says 'Automatisation supprimée' and removes the card", async () => {
    const workflow = workflowFixture();
    const backend = mockAdminBackend({ workflows: [workflow] });
    const app = openAdminWorkflows();
    await cardAction(app, workflow.name, 'Supprimer');
    const dialog = within(await screen.findByRole('dialog'));
    expect(
      dialog.getByText(/« Relance des pièces » et son historique seront supprimés définitivement/),
    ).toBeVisible();
    expect(backend.sent('DELETE', `/api/workflows/${workflow.id}`)).toEqual([]);

    await app.user.click(dialogButton('Supprimer'));

    expect(await screen.findByText('Automatisation supprimée')).toBeVisible();
    expect(backend.sent('DELETE', `/api/workflows/${workflow.id}`)).toHaveLength(1);
    expect(await screen.findByText('Aucune automatisation')).toBeVisible();
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const workflow = workflowFixture();
    const backend = mockAdminBackend({ workflows: [workflow] });
    const app = openAdminWorkflows();
    await cardAction(app, workflow.name, 'Supprimer');
    await screen.findByRole('dialog');

    await app.user.click(dialogButton('Annuler'));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.sent('DELETE', `/api/workflows/${workflow.id}`)).toEqual([]);
    expect(cardTitles()).toEqual([workflow.name]);
  });

  it("says 'Erreur lors de la suppression de l'automatisation' and keeps the card when it fails", async () => {
    const workflow = workflowFixture();
    mockAdminBackend({ workflows: [workflow] }, (request) =>
      request.method === 'DELETE' ? jsonResponse(404, { error: 'Automatisation introuvable' }) : undefined,
    );
    const app = openAdminWorkflows();
    await cardAction(app, workflow.name, 'Supprimer');
    await screen.findByRole('dialog');

    await app.user.click(dialogButton('Supprimer'));

    expect(await screen.findByText("Erreur lors de la suppression de l'automatisation")).toBeVisible();
    expect(cardTitles()).toEqual([workflow.name]);
  });
});

describe('toggles', () => {
  it("deactivates then activates, with 'désactivée avec succès' and 'activée'", async () => {
    const workflow = workflowFixture({ active: true });
    const backend = mockAdminBackend({ workflows: [workflow] });
    const app = openAdminWorkflows();

    await cardAction(app, workflow.name, 'Désactiver');
    expect(await screen.findByText('Automatisation désactivée avec succès')).toBeVisible();
    expect(within(cardOf(workflow.name)).getByText('Inactif')).toBeVisible();
    await cardAction(app, workflow.name, 'Activer');

    expect(await screen.findByText('Automatisation activée')).toBeVisible();
    expect(within(cardOf(workflow.name)).getByText('Actif')).toBeVisible();
    expect(backend.sent('POST', `/api/workflows/${workflow.id}/toggle-active`)).toHaveLength(2);
  });

  it('switches scheduling on then off, with its toasts and the card label', async () => {
    const workflow = workflowFixture({
      cronSettings: { enabled: false, interval: 1, lastRun: null, nextRun: null },
    });
    const backend = mockAdminBackend({ workflows: [workflow] });
    const app = openAdminWorkflows();

    await cardAction(app, workflow.name, 'Planifier');
    expect(await screen.findByText('Planification activée avec succès')).toBeVisible();
    expect(within(cardOf(workflow.name)).getByText('Planifié (1 min)')).toBeVisible();
    await cardAction(app, workflow.name, 'Arrêter la planification');

    expect(await screen.findByText('Planification désactivée avec succès')).toBeVisible();
    expect(within(cardOf(workflow.name)).getByText('Non planifié')).toBeVisible();
    expect(backend.sent('POST', `/api/workflows/${workflow.id}/toggle-scheduling`)).toHaveLength(2);
  });

  it.each([
    ['Désactiver', 'toggle-active', "Erreur lors de l'activation/désactivation de l'automatisation"],
    ['Planifier', 'toggle-scheduling', "Erreur lors de l'activation/désactivation de la planification"],
  ])(
    '%s (%s): says %j when the server refuses, and keeps the card as it was',
    async (item, action, message) => {
      const workflow = workflowFixture();
      mockAdminBackend({ workflows: [workflow] }, (request) =>
        request.url.endsWith(`/${action}`) ? jsonResponse(409, { error: 'Conflit' }) : undefined,
      );
      const app = openAdminWorkflows();

      await cardAction(app, workflow.name, item);

      expect(await screen.findByText(message)).toBeVisible();
      expect(within(cardOf(workflow.name)).getByText('Actif')).toBeVisible();
      expect(within(cardOf(workflow.name)).getByText('Non planifié')).toBeVisible();
    },
  );
});
