import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Workflow } from '../../../shared';
import { workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { errorOf, inputOf } from '../support/form-fields';
import { folderFixture, mockAdminBackend } from './admin-backend';
import { dialogButton, openAdminWorkflows } from './admin-page';

type App = ReturnType<typeof openAdminWorkflows>;

const DUPONT = folderFixture({ name: 'Succession Dupont', description: 'Dossier de la famille Dupont' });
const MARTIN = folderFixture({ name: 'Divorce Martin' });

function workflowIn(folderId: string | null, overrides: Partial<Workflow> = {}): Workflow {
  return workflowFixture({ id: crypto.randomUUID(), folderId, ...overrides });
}

/** Three workflows in Dupont (two active, one scheduled), one in Martin, one in no folder. */
const WORKFLOWS = [
  workflowIn(DUPONT.id, { name: 'Tri des e-mails', active: true }),
  workflowIn(DUPONT.id, {
    name: 'Relance des pièces',
    active: true,
    cronSettings: { enabled: true, interval: 1, lastRun: null, nextRun: null },
  }),
  workflowIn(DUPONT.id, { name: 'Classement', active: false }),
  workflowIn(MARTIN.id, { name: 'Agenda des audiences', active: false }),
  workflowIn(null, { name: 'Sans dossier' }),
];

async function openFoldersTab(app: App) {
  await app.user.click(await screen.findByRole('tab', { name: 'Dossiers' }));
  await screen.findByRole('heading', { name: /^Clients & Dossiers/ });
  // The folders are read once the tab shows: wait for their first page.
  await waitFor(() => expect(createWrapper(document.body).findTable()?.findLoadingText()).toBeNull());
}

/** The row of a folder in the left list. */
function folderRow(name: string): HTMLElement {
  const row = screen.getByText(name, { selector: 'table *' }).closest('tr');
  if (!row) throw new Error(`Aucune ligne « ${name} »`);
  return row;
}

async function selectFolder(app: App, name: string) {
  await app.user.click(screen.getByRole('radio', { name: `Ouvrir le dossier ${name}` }));
}

/** The value shown under a counter label of the selected folder. */
function counter(label: string): string {
  const pair = createWrapper(document.body)
    .findKeyValuePairs()
    ?.findItems()
    .find((item) => item.findLabel()?.getElement().textContent === label);
  return pair?.findValue()?.getElement().textContent ?? '';
}

function compactCards(): string[] {
  const panels = createWrapper(document.body).findAllCards();
  const folderCards = panels.at(-1);
  return folderCards?.findItems().map((item) => item.findCardHeader()?.getElement().textContent ?? '') ?? [];
}

describe("folders tab 'Clients & Dossiers'", () => {
  it('counts the automations, the active and the scheduled ones of each folder', async () => {
    mockAdminBackend({ folders: [DUPONT, MARTIN], workflows: WORKFLOWS });
    const app = openAdminWorkflows();

    await openFoldersTab(app);

    expect(
      within(folderRow('Succession Dupont')).getByText('3 automatisations · 2 actives · 1 planifiée'),
    ).toBeVisible();
    expect(
      within(folderRow('Divorce Martin')).getByText('1 automatisation · 0 active · 0 planifiée'),
    ).toBeVisible();
    expect(screen.getByText('Sélectionnez un dossier pour voir ses automatisations.')).toBeVisible();
  });

  it('shows the selected folder with Total / Actives / Planifiées and its compact cards, with a search', async () => {
    mockAdminBackend({ folders: [DUPONT, MARTIN], workflows: WORKFLOWS });
    const app = openAdminWorkflows();
    await openFoldersTab(app);

    await selectFolder(app, 'Succession Dupont');

    expect(await screen.findByText('Dossier de la famille Dupont')).toBeVisible();
    expect([counter('Total'), counter('Actives'), counter('Planifiées')]).toEqual(['3', '2', '1']);
    expect(compactCards().sort()).toEqual(['Classement', 'Relance des pièces', 'Tri des e-mails']);
    createWrapper(document.body)
      .findAllCards()
      .at(-1)!
      .findTextFilter()!
      .findInput()
      .setInputValue('CLASSEMENT');
    await waitFor(() => expect(compactCards()).toEqual(['Classement']));
    expect(counter('Total')).toBe('3');
  });

  it('searches the folder list', async () => {
    mockAdminBackend({ folders: [DUPONT, MARTIN], workflows: WORKFLOWS });
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    const table = createWrapper(document.body).findTable()!;

    table.findTextFilter()!.findInput().setInputValue('martin');

    await waitFor(() => expect(table.findRows()).toHaveLength(1));
    expect(within(table.findRows()[0]!.getElement()).getByText('Divorce Martin')).toBeVisible();
  });

  it("shows 'Ajouter au Dossier' only once a folder is selected, beside 'Nouveau Dossier'", async () => {
    mockAdminBackend({ folders: [DUPONT] });
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    expect(screen.getByRole('button', { name: 'Nouveau Dossier' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Nouvelle Automatisation' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ajouter au Dossier' })).toBeNull();

    await selectFolder(app, 'Succession Dupont');

    expect(screen.getByRole('button', { name: 'Ajouter au Dossier' })).toBeVisible();
  });
});

describe('folder selection and filing existing automations', () => {
  it("opens a folder by a click anywhere on its row, and names the column 'Dossier'", async () => {
    mockAdminBackend({ folders: [DUPONT, MARTIN], workflows: WORKFLOWS });
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    const table = createWrapper(document.body).findTable()!;
    // The last header is the folder column; the first is the radio column's hidden label.
    expect(table.findColumnHeaders().at(-1)?.getElement().textContent).toBe('Dossier');

    await app.user.click(within(folderRow('Divorce Martin')).getByText(/1 automatisation ·/));

    expect(await screen.findByRole('heading', { name: 'Divorce Martin' })).toBeVisible();
    expect(compactCards()).toEqual(['Agenda des audiences']);
    expect(
      (screen.getByRole('radio', { name: 'Ouvrir le dossier Divorce Martin' }) as HTMLInputElement).checked,
    ).toBe(true);
  });

  it("'Ajouter au Dossier' files several existing automations at once, keeping their scheduling", async () => {
    const backend = mockAdminBackend({ folders: [DUPONT, MARTIN], workflows: WORKFLOWS });
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    await selectFolder(app, 'Divorce Martin');
    await app.user.click(screen.getByRole('button', { name: 'Ajouter au Dossier' }));
    const dialog = within(await screen.findByRole('dialog', { name: /Divorce Martin/ }));
    // The folder's own automation cannot be chosen again; the others say where they are now.
    expect((await dialog.findByText('Sans dossier')).closest('tr')?.textContent).toContain('Aucun dossier');
    expect(dialog.getByText('Agenda des audiences').closest('tr')?.textContent).toContain('Divorce Martin');
    expect(
      (dialog.getByRole('checkbox', { name: 'Choisir Agenda des audiences' }) as HTMLInputElement).disabled,
    ).toBe(true);
    await app.user.click(dialog.getByRole('checkbox', { name: 'Choisir Relance des pièces' }));
    await app.user.click(dialog.getByText('Sans dossier'));

    await app.user.click(dialogButton('Ajouter (2)'));

    expect(await screen.findByText('2 automatisations ajoutées au dossier « Divorce Martin »')).toBeVisible();
    const moved = WORKFLOWS.filter((workflow) =>
      ['Relance des pièces', 'Sans dossier'].includes(workflow.name),
    );
    for (const workflow of moved) {
      expect(backend.sent('PUT', `/api/workflows/${workflow.id}`).map((request) => request.body)).toEqual([
        { folderId: MARTIN.id },
      ]);
    }
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The folder's page and counters are read again from the server.
    await waitFor(() =>
      expect(compactCards().sort()).toEqual(['Agenda des audiences', 'Relance des pièces', 'Sans dossier']),
    );
    await waitFor(() => expect(counter('Planifiées')).toBe('1'));
  });
});

describe("'Ajouter au Dossier' with many automations", () => {
  /*
   * Each of these is a whole journey (the page, the tab, a folder, the dialog, its pages): two
   * dozen user actions, each redrawing the page, take more than the web tests' 60 s on a machine
   * shared by many runs. A bound, not a budget.
   */
  const JOURNEY_BOUND = 180_000;

  /** 25 automations in no folder, 'Automatisation 01' to 'Automatisation 25'. */
  const MANY = Array.from({ length: 25 }, (_, index) =>
    workflowIn(null, { name: `Automatisation ${String(index + 1).padStart(2, '0')}` }),
  );

  it(
    'draws 10 candidates at a time and keeps a choice made on another page',
    async () => {
      const backend = mockAdminBackend({ folders: [MARTIN], workflows: MANY });
      const app = openAdminWorkflows();
      await openFoldersTab(app);
      await selectFolder(app, 'Divorce Martin');
      await app.user.click(screen.getByRole('button', { name: 'Ajouter au Dossier' }));
      const dialog = within(await screen.findByRole('dialog', { name: /Divorce Martin/ }));
      const rows = () => dialog.queryAllByText(/^Automatisation \d+$/).map((name) => name.textContent);
      await waitFor(() => expect(rows()).toHaveLength(10));
      const next = () => dialog.getByRole('button', { name: 'Page suivante' });

      await app.user.click(dialog.getByRole('checkbox', { name: 'Choisir Automatisation 01' }));
      // Each next page is read when asked for: the third holds the last 5.
      await app.user.click(next());
      await waitFor(() => expect(rows()).toContain('Automatisation 11'));
      await app.user.click(next());
      await waitFor(() => expect(rows()).toHaveLength(5));
      await app.user.click(dialog.getByRole('checkbox', { name: 'Choisir Automatisation 25' }));
      await app.user.click(dialogButton('Ajouter (2)'));

      expect(
        await screen.findByText('2 automatisations ajoutées au dossier « Divorce Martin »'),
      ).toBeVisible();
      for (const name of ['Automatisation 01', 'Automatisation 25']) {
        const workflow = MANY.find((item) => item.name === name);
        expect(backend.sent('PUT', `/api/workflows/${workflow?.id}`).map((request) => request.body)).toEqual([
          { folderId: MARTIN.id },
        ]);
      }
    },
    JOURNEY_BOUND,
  );

  it(
    'searches every candidate, not only the page drawn',
    async () => {
      mockAdminBackend({ folders: [MARTIN], workflows: MANY });
      const app = openAdminWorkflows();
      await openFoldersTab(app);
      await selectFolder(app, 'Divorce Martin');
      await app.user.click(screen.getByRole('button', { name: 'Ajouter au Dossier' }));
      const dialog = within(await screen.findByRole('dialog', { name: /Divorce Martin/ }));

      // A word's beginning is enough for the server's search (and two keystrokes cost less than 17).
      await app.user.type(dialog.getByRole('searchbox'), '24');

      await waitFor(() =>
        expect(dialog.getAllByText(/^Automatisation \d+$/).map((name) => name.textContent)).toEqual([
          'Automatisation 24',
        ]),
      );
    },
    JOURNEY_BOUND,
  );
});

describe('folder dialog', () => {
  it('refuses a name blank once trimmed, saying so under the field, and sends nothing', async () => {
    const backend = mockAdminBackend();
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    await app.user.click(screen.getByRole('button', { name: 'Nouveau Dossier' }));
    await screen.findByRole('dialog');
    await app.user.type(inputOf('Nom du dossier'), '    ');

    await app.user.click(dialogButton('Créer'));
    await app.user.type(inputOf('Nom du dossier'), '{Enter}');

    expect(backend.sent('POST', '/api/folders')).toEqual([]);
    expect(screen.getByRole('dialog')).toBeVisible();
    expect(screen.queryByText('Dossier créé')).toBeNull();
    expect(errorOf('Nom du dossier')).toBe('Le nom du dossier est requis');
  });

  it('creates a folder with a trimmed name and no description, then selects it', async () => {
    const backend = mockAdminBackend();
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    await app.user.click(screen.getByRole('button', { name: 'Nouveau Dossier' }));
    await screen.findByRole('dialog');
    await app.user.type(inputOf('Nom du dossier'), '  Succession Durand ');

    await app.user.click(dialogButton('Créer'));

    expect(await screen.findByText('Dossier créé')).toBeVisible();
    expect(backend.sent('POST', '/api/folders')[0]?.body).toEqual({
      name: 'Succession Durand',
      description: null,
    });
    expect(await screen.findByRole('heading', { name: 'Succession Durand' })).toBeVisible();
  });

  it('edits a folder from its row', async () => {
    const backend = mockAdminBackend({ folders: [DUPONT] });
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    await app.user.click(screen.getByRole('button', { name: 'Modifier le dossier Succession Dupont' }));
    await screen.findByRole('dialog');
    expect(inputOf('Description (facultatif)').value).toBe('Dossier de la famille Dupont');
    await app.user.clear(inputOf('Nom du dossier'));
    await app.user.paste('Succession Dupont-Leroy');

    await app.user.click(dialogButton('Enregistrer'));

    expect(await screen.findByText('Dossier mis à jour')).toBeVisible();
    expect(backend.sent('PUT', `/api/folders/${DUPONT.id}`)[0]?.body).toEqual({
      name: 'Succession Dupont-Leroy',
      description: 'Dossier de la famille Dupont',
    });
    expect(
      within(createWrapper(document.body).findTable()!.getElement()).getByText('Succession Dupont-Leroy'),
    ).toBeVisible();
  });

  it('says the save failed and keeps the dialog open', async () => {
    mockAdminBackend({}, (request) =>
      request.method === 'POST' && request.url.endsWith('/api/folders')
        ? jsonResponse(400, { error: 'Données invalides' })
        : undefined,
    );
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    await app.user.click(screen.getByRole('button', { name: 'Nouveau Dossier' }));
    await screen.findByRole('dialog');
    await app.user.type(inputOf('Nom du dossier'), 'Succession Durand');

    await app.user.click(dialogButton('Créer'));

    expect(
      await screen.findByText("Erreur lors de l'enregistrement du dossier : Données invalides"),
    ).toBeVisible();
    expect(screen.getByRole('dialog')).toBeVisible();
  });
});

describe('folder deletion (spec §4)', () => {
  it('says the automations survive, deletes the folder and leaves them without a folder', async () => {
    const backend = mockAdminBackend({ folders: [DUPONT, MARTIN], workflows: WORKFLOWS });
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    await selectFolder(app, 'Succession Dupont');
    await app.user.click(screen.getByRole('button', { name: 'Supprimer le dossier Succession Dupont' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(
      dialog.getByText(/Ses automatisations sont conservées et ne sont plus rattachées à aucun dossier/),
    ).toBeVisible();

    await app.user.click(dialogButton('Supprimer'));

    expect(await screen.findByText('Dossier supprimé')).toBeVisible();
    expect(backend.sent('DELETE', `/api/folders/${DUPONT.id}`)).toHaveLength(1);
    expect(screen.queryByRole('radio', { name: 'Ouvrir le dossier Succession Dupont' })).toBeNull();
    expect(screen.getByText('Sélectionnez un dossier pour voir ses automatisations.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Ajouter au Dossier' })).toBeNull();
    // The three automations are still listed on the all tab.
    await app.user.click(screen.getByRole('tab', { name: 'Toutes les Automatisations' }));
    const titles = createWrapper(document.body)
      .findCards()!
      .findItems()
      .map((item) => item.findCardHeader()?.getElement().textContent);
    expect(titles).toHaveLength(WORKFLOWS.length);
  });

  it('sends nothing when the deletion is cancelled', async () => {
    const backend = mockAdminBackend({ folders: [DUPONT] });
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    await app.user.click(screen.getByRole('button', { name: 'Supprimer le dossier Succession Dupont' }));
    await screen.findByRole('dialog');

    await app.user.click(dialogButton('Annuler'));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.sent('DELETE', `/api/folders/${DUPONT.id}`)).toEqual([]);
  });

  it('sends the same folder again under the same Idempotency-Key, changed content under a new one', async () => {
    let unavailable = true;
    const backend = mockAdminBackend({}, (request) =>
      request.method === 'POST' && request.url.endsWith('/api/folders') && unavailable
        ? jsonResponse(503, { error: 'Service momentanément indisponible' })
        : undefined,
    );
    const app = openAdminWorkflows();
    await openFoldersTab(app);
    await app.user.click(screen.getByRole('button', { name: 'Nouveau Dossier' }));
    await screen.findByRole('dialog');
    await app.user.type(inputOf('Nom du dossier'), 'Succession Durand');

    // Each sending is answered before the next click: a click while one is in flight is not a new sending.
    await app.user.click(dialogButton('Créer'));
    await waitFor(() => expect(backend.sent('POST', '/api/folders')).toHaveLength(1));
    await waitFor(() => expect(dialogButton('Créer').disabled).toBe(false));
    await app.user.click(dialogButton('Créer'));
    await waitFor(() => expect(backend.sent('POST', '/api/folders')).toHaveLength(2));
    await waitFor(() => expect(dialogButton('Créer').disabled).toBe(false));
    unavailable = false;
    await app.user.type(inputOf('Nom du dossier'), ' SA');
    await waitFor(() => expect(inputOf('Nom du dossier').value).toBe('Succession Durand SA'));
    await app.user.click(dialogButton('Créer'));

    expect(await screen.findByText('Dossier créé')).toBeVisible();
    const keys = backend.sent('POST', '/api/folders').map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
