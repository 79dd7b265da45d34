import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { MESSAGES } from '../../../../shared/messages';
import type { FolderList } from '../../../../shared/schemas/directory';
import type { Folder } from '../../../../shared/schemas/folder';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer, issueAndSignIn, workflowFields } from '../../../support/directory';

describe('folders API', () => {
  let app: TestApp;
  let admin: string;
  const create = (body: unknown) => callRoute<Folder>(app, 'createFolder', { token: admin, body });

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  it('creates a folder from a trimmed name and an optional description', async () => {
    const { statusCode, body } = await create({ name: '  Succession Dupont ', description: '' });

    expect(statusCode).toBe(201);
    expect(body).toMatchObject({ name: 'Succession Dupont', description: null });
  });

  it('refuses a name that is blank once trimmed, in French, naming the field', async () => {
    const { statusCode, body } = await create({ name: '   ' });

    expect(statusCode).toBe(400);
    expect(body).toEqual({ error: 'Le nom du dossier est requis' });
  });

  it('lists folders newest first', async () => {
    app.clock.advance(60_000);
    const older = (await create({ name: 'Divorce Durand' })).body;
    app.clock.advance(60_000);
    const newer = (await create({ name: 'Vente Leroy' })).body;

    const { body } = await callRoute<FolderList>(app, 'listFolders', { token: admin });

    expect(body.folders.slice(0, 2).map((folder) => folder.id)).toEqual([newer.id, older.id]);
  });

  it('renames a folder', async () => {
    const folder = (await create({ name: 'Bail Martin' })).body;

    const { statusCode, body } = await callRoute<Folder>(app, 'updateFolder', {
      token: admin,
      params: { id: folder.id },
      body: { name: 'Bail commercial Martin', description: 'Local rue de Rivoli' },
    });

    expect(statusCode).toBe(200);
    expect(body).toMatchObject({
      id: folder.id,
      name: 'Bail commercial Martin',
      description: 'Local rue de Rivoli',
    });
  });

  it.each([
    ['updateFolder', { name: 'Nouveau nom' }],
    ['deleteFolder', undefined],
  ] as const)('answers 404 from %s for a folder that does not exist', async (route, body) => {
    const { statusCode, body: reply } = await callRoute(app, route, {
      token: admin,
      params: { id: '2b5c7f1e-8a4d-4e2f-9c6b-1d3e5f7a9b0c' },
      body,
    });

    expect(statusCode).toBe(404);
    expect(reply).toEqual({ error: MESSAGES.folder.notFound });
  });

  it('deletes a folder and keeps its workflows, which lose the association', async () => {
    const lawyer = await createSignedInLawyer(app, admin);
    const folder = (await create({ name: 'Succession Bernard' })).body;
    const workflow = (
      await callRoute<Workflow>(app, 'createWorkflow', {
        token: admin,
        body: workflowFields(lawyer.email, { folderId: folder.id }),
      })
    ).body;

    const { statusCode, body } = await callRoute(app, 'deleteFolder', {
      token: admin,
      params: { id: folder.id },
    });

    expect(statusCode).toBe(200);
    expect(body).toEqual({ success: true });
    const kept = await callRoute<Workflow>(app, 'getWorkflow', { token: admin, params: { id: workflow.id } });
    expect(kept.body).toMatchObject({ id: workflow.id, folderId: null });
    expect(await new WorkflowRepository(app.table).listByFolder(folder.id)).toEqual([]);
    const folders = await callRoute<FolderList>(app, 'listFolders', { token: admin });
    expect(folders.body.folders.map((each) => each.id)).not.toContain(folder.id);
  });
});
