import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { MESSAGES } from '../../../../shared/messages';
import type { RouteName } from '../../../../shared/routes';
import type {
  DirectoryCounts,
  FolderList,
  LawyerList,
  WorkflowList,
} from '../../../../shared/schemas/directory';
import type { Folder } from '../../../../shared/schemas/folder';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer, issueAndSignIn, workflowFields } from '../../../support/directory';

type Page = { nextCursor: string | null } & Record<string, unknown>;

/**
 * The searches of the directory run on the server (spec §2: automations by name and description;
 * lawyers by first name, last name, e-mail and office name; folders by name), without case or
 * accents, one page at a time with a cursor that belongs to its list, its search and its user.
 */
describe('the directory searches', () => {
  let app: TestApp;
  let admin: string;
  let otherAdmin: string;
  let owner: Awaited<ReturnType<typeof createSignedInLawyer>>;
  const created: Workflow[] = [];

  const list = async <T extends Page>(name: RouteName, token: string, query: Record<string, string> = {}) =>
    callRoute<T>(app, name, { token, query });

  const names = (page: WorkflowList) => page.workflows.map((workflow) => workflow.name);

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
    otherAdmin = (await issueAndSignIn(app, 'admin')).token;
    owner = await createSignedInLawyer(app, admin, {
      firstName: 'Hélène',
      lastName: 'Dupont-Lefèvre',
      officeName: 'Étude Lefèvre & Associés',
    });
    const fields = [
      { name: 'Équipe Dupont', description: 'Relance des pièces manquantes du dossier Dupont' },
      { name: 'Client 777', description: 'Gestion des e-mails entrants du client 777' },
      { name: 'Client 7770', description: 'Classement des pièces reçues' },
      { name: 'Client 12', description: 'Gestion des e-mails entrants' },
      { name: 'Résumé hebdomadaire', description: 'Envoie un résumé chaque semaine à l’équipe' },
    ];
    for (const field of fields) {
      app.clock.advance(1_000);
      const { body } = await callRoute<Workflow>(app, 'createWorkflow', {
        token: admin,
        body: workflowFields(owner.email, field),
      });
      created.unshift(body);
    }
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  it("finds automations by the start of words of their name or description, without case or accents ('Équipe' finds 'equipe')", async () => {
    expect(names((await list<WorkflowList>('listWorkflows', admin, { q: 'equipe' })).body)).toEqual([
      'Résumé hebdomadaire',
      'Équipe Dupont',
    ]);
    expect(names((await list<WorkflowList>('listWorkflows', admin, { q: 'RESUME' })).body)).toEqual([
      'Résumé hebdomadaire',
    ]);
    expect(names((await list<WorkflowList>('listWorkflows', admin, { q: 'client 777' })).body)).toEqual([
      'Client 7770',
      'Client 777',
    ]);
    expect(names((await list<WorkflowList>('listWorkflows', admin, { q: 'pieces manq' })).body)).toEqual([
      'Équipe Dupont',
    ]);
  });

  it('names the lawyers of an admin’s page', async () => {
    const { body } = await list<WorkflowList>('listWorkflows', admin, { q: 'client 12' });

    expect(body.owners).toEqual([{ email: owner.email, firstName: 'Hélène', lastName: 'Dupont-Lefèvre' }]);
  });

  it('finds lawyers by first name, last name, e-mail and office name', async () => {
    for (const q of ['helene', 'lefevre', owner.email.split('@')[0] ?? '', 'etude assoc']) {
      const { statusCode, body } = await list<LawyerList>('listLawyers', admin, { q });
      expect(statusCode, q).toBe(200);
      expect(
        body.lawyers.map((lawyer) => lawyer.id),
        q,
      ).toEqual([owner.lawyer.id]);
    }
    expect((await list<LawyerList>('listLawyers', admin, { q: 'inconnu' })).body.lawyers).toEqual([]);
  });

  it('finds folders by their name', async () => {
    for (const name of ['Succession Müller', 'Divorce Martin']) {
      await callRoute<Folder>(app, 'createFolder', { token: admin, body: { name } });
    }

    const { body } = await list<FolderList>('listFolders', admin, { q: 'muller' });

    expect(body.folders.map((folder) => folder.name)).toEqual(['Succession Müller']);
  });

  it.each([
    ['empty', ''],
    ['one character', 'c'],
    ['200 characters', 'client '.repeat(28).slice(0, 200)],
    ['per cents', '%%%'],
    ['stars', '***'],
    ['quotes', `"'\`"`],
    ['emoji', '😀🎉'],
    ['a filter expression', "contains(search, ' a') OR true"],
  ])('answers a search of %s with a page, never an error', async (_label, q) => {
    for (const name of ['listWorkflows', 'listLawyers', 'listFolders'] as const) {
      const { statusCode, body } = await list<Page>(name, admin, { q });
      expect(statusCode, `${name} ${q}`).toBe(200);
      expect(body.nextCursor === null || typeof body.nextCursor === 'string').toBe(true);
    }
  });

  it('finds by a word of one letter, within a page of the list', async () => {
    const { body } = await list<WorkflowList>('listWorkflows', admin, { q: 'r' });

    // 'Résumé', 'reçues', 'Relance'.
    expect(names(body)).toEqual(['Résumé hebdomadaire', 'Client 7770', 'Équipe Dupont']);
  });

  it('refuses a search over 200 characters with a French 400 naming the parameter', async () => {
    for (const name of ['listWorkflows', 'listLawyers', 'listFolders'] as const) {
      const { statusCode, body } = await list(name, admin, { q: 'a'.repeat(201) });
      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: MESSAGES.request.searchTooLong });
    }
  });

  it('pages through a search, newest first, each automation once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = { q: 'client', limit: '1', ...(cursor ? { cursor } : {}) };
      const { statusCode, body } = await list<WorkflowList>('listWorkflows', admin, query);
      expect(statusCode).toBe(200);
      seen.push(...names(body));
      cursor = body.nextCursor;
    } while (cursor);

    expect(seen).toEqual(['Client 12', 'Client 7770', 'Client 777']);
  });

  it('shows an automation created or deleted between two pages neither twice nor in place of another', async () => {
    const first = (await list<WorkflowList>('listWorkflows', admin, { q: 'client', limit: '1' })).body;
    app.clock.advance(1_000);
    await callRoute(app, 'createWorkflow', {
      token: admin,
      body: workflowFields(owner.email, { name: 'Client 13', description: 'Nouveau client du cabinet' }),
    });
    const deleted = created.find((workflow) => workflow.name === 'Client 7770') as Workflow;
    await callRoute(app, 'deleteWorkflow', { token: admin, params: { id: deleted.id } });

    const rest = (
      await list<WorkflowList>('listWorkflows', admin, { q: 'client', cursor: first.nextCursor ?? '' })
    ).body;

    expect(names(first)).toEqual(['Client 12']);
    expect(names(rest)).toEqual(['Client 777']);
  });

  it("refuses the cursor of another search, another list or another user with 'Curseur invalide'", async () => {
    const page = (await list<WorkflowList>('listWorkflows', admin, { q: 'client', limit: '1' })).body;
    const cursor = page.nextCursor ?? '';
    const plain = (await list<WorkflowList>('listWorkflows', admin, { limit: '1' })).body.nextCursor ?? '';

    const refusals = [
      await list('listWorkflows', admin, { q: 'gestion', cursor }),
      await list('listWorkflows', admin, { cursor }),
      await list('listWorkflows', admin, { q: 'client', cursor: plain }),
      await list('listLawyers', admin, { q: 'client', cursor }),
      await list('listFolders', admin, { cursor }),
      await list('listWorkflows', otherAdmin, { q: 'client', cursor }),
      await list('listWorkflows', owner.token, { q: 'client', cursor }),
    ];

    for (const refusal of refusals) {
      expect(refusal.statusCode).toBe(400);
      expect(refusal.body).toEqual({ error: MESSAGES.request.invalidCursor });
    }
  });

  it('keeps a folder’s automations, and a member’s own by state and type', async () => {
    const { body: folder } = await callRoute<Folder>(app, 'createFolder', {
      token: admin,
      body: { name: 'Dossier Dupont' },
    });
    const filed = created.find((workflow) => workflow.name === 'Équipe Dupont') as Workflow;
    await callRoute(app, 'updateWorkflow', {
      token: admin,
      params: { id: filed.id },
      body: { folderId: folder.id },
    });
    await callRoute(app, 'toggleWorkflowActive', { token: admin, params: { id: filed.id } });

    const folderPage = await list<WorkflowList>('listWorkflows', admin, { folderId: folder.id });
    expect(folderPage.statusCode).toBe(200);
    const inFolder = folderPage.body;
    const inactive = (await list<WorkflowList>('listWorkflows', owner.token, { active: 'false' })).body;
    const documents = (
      await list<WorkflowList>('listWorkflows', owner.token, { type: 'document_classification' })
    ).body;
    const folders = (await list<FolderList>('listFolders', admin, { q: 'dupont' })).body;

    expect(names(inFolder)).toEqual(['Équipe Dupont']);
    expect(names(inactive)).toEqual(['Équipe Dupont']);
    expect(documents.workflows).toEqual([]);
    expect(folders.folders[0]?.counts).toEqual({ total: 1, active: 0, scheduled: 0 });
  });

  it.each([
    ['folderId', 'pas-un-dossier', MESSAGES.request.invalidFolderId],
    ['active', 'oui', MESSAGES.request.invalidActive],
    ['type', 'autre', MESSAGES.request.invalidWorkflowType],
  ])('refuses %s=%s with a French 400 naming it', async (parameter, value, message) => {
    const { statusCode, body } = await list('listWorkflows', admin, { [parameter]: value });

    expect(statusCode).toBe(400);
    expect(body).toEqual({ error: message });
  });

  it('answers the counts the screens show: everyone’s for an admin, his own for a member', async () => {
    const all = (await list<WorkflowList>('listWorkflows', admin, { limit: '100' })).body.workflows;
    const expected = {
      total: all.length,
      active: all.filter((workflow) => workflow.active).length,
      scheduled: all.filter((workflow) => workflow.cronSettings.enabled).length,
    };

    const forAdmin = (await callRoute<DirectoryCounts>(app, 'directoryCounts', { token: admin })).body;
    const forOwner = (await callRoute<DirectoryCounts>(app, 'directoryCounts', { token: owner.token })).body;

    expect(forAdmin.workflows).toMatchObject(expected);
    expect(forAdmin.workflows.byType.client_management).toBe(all.length);
    expect(forAdmin.lawyers).toBe(1);
    expect(forAdmin.folders).toBe(3);
    expect(forOwner).toEqual({ workflows: forAdmin.workflows, lawyers: null, folders: null });
  });
});
