import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { workflowKey } from '../../../../functions/data/directory/keys';
import { MESSAGES } from '../../../../shared/messages';
import type { WorkflowList } from '../../../../shared/schemas/directory';
import type { Folder } from '../../../../shared/schemas/folder';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import {
  callRoute,
  createSignedInLawyer,
  issueAndSignIn,
  lawyerFields,
  workflowFields,
} from '../../../support/directory';

describe('workflows API', () => {
  let app: TestApp;
  let admin: string;
  let owner: Awaited<ReturnType<typeof createSignedInLawyer>>;
  let stranger: Awaited<ReturnType<typeof createSignedInLawyer>>;
  const create = async (overrides: Record<string, unknown> = {}, lawyerEmail = owner.email) =>
    callRoute<Workflow>(app, 'createWorkflow', {
      token: admin,
      body: workflowFields(lawyerEmail, overrides),
    });

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
    owner = await createSignedInLawyer(app, admin);
    stranger = await createSignedInLawyer(app, admin);
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  describe('POST /api/workflows', () => {
    it.each([
      ['client_management', 2],
      ['client_reminder', 1],
      ['document_classification', 1],
    ])('creates a %s workflow active, unscheduled, every %i minute(s)', async (type, interval) => {
      const { statusCode, body } = await create({ type });

      expect(statusCode).toBe(201);
      expect(body).toMatchObject({
        type,
        active: true,
        lawyerEmail: owner.email,
        folderId: null,
        cronSettings: { enabled: false, interval, lastRun: null, nextRun: null },
      });
    });

    it('refuses a lawyer who does not exist', async () => {
      const { statusCode, body } = await create({}, 'inconnu@example.com');

      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: MESSAGES.workflow.unknownLawyer });
    });

    it('refuses a folder that does not exist', async () => {
      const { statusCode, body } = await create({ folderId: '0b0d1f57-5c55-4bb4-93a4-3c1de8a6a3a0' });

      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: MESSAGES.workflow.unknownFolder });
    });

    it.each([
      ['name', { name: 'ab' }, MESSAGES.validation.workflowName],
      ['description', { description: 'courte' }, MESSAGES.validation.workflowDescription],
      ['webhook URL', { webhookUrl: 'ftp://exemple.fr' }, MESSAGES.execution.invalidWebhookUrl],
    ])('refuses an invalid %s with its French message', async (_, overrides, message) => {
      const { statusCode, body } = await create(overrides);

      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: message });
    });
  });

  describe('GET /api/workflows', () => {
    it('lists every workflow for an admin and his own for a lawyer, newest first', async () => {
      app.clock.advance(60_000);
      const older = (await create()).body;
      app.clock.advance(60_000);
      const theirs = (await create({}, stranger.email)).body;
      app.clock.advance(60_000);
      const newer = (await create()).body;

      const all = await callRoute<WorkflowList>(app, 'listWorkflows', { token: admin });
      const own = await callRoute<WorkflowList>(app, 'listWorkflows', { token: owner.token });

      expect(all.body.workflows.slice(0, 3).map((workflow) => workflow.id)).toEqual([
        newer.id,
        theirs.id,
        older.id,
      ]);
      const ownIds = own.body.workflows.map((workflow) => workflow.id);
      expect(ownIds.slice(0, 2)).toEqual([newer.id, older.id]);
      expect(ownIds).not.toContain(theirs.id);
      expect(own.body.workflows.every((workflow) => workflow.lawyerEmail === owner.email)).toBe(true);
    });

    it('lists his own under his e-mail as it is now, not the one his token carries, once another lawyer holds that one', async () => {
      // Arrange: a lawyer moves to a new e-mail (his token keeps the old one), which a new lawyer then takes.
      const mover = await createSignedInLawyer(app, admin);
      const his = (await create({}, mover.email)).body;
      const newEmail = lawyerFields().email;
      await callRoute(app, 'saveProfile', { token: mover.token, body: lawyerFields({ email: newEmail }) });
      const successor = await createSignedInLawyer(app, admin, { email: mover.email });
      const successors = (await create({}, successor.email)).body;

      // Act
      const { statusCode, body } = await callRoute<WorkflowList>(app, 'listWorkflows', {
        token: mover.token,
      });

      // Assert
      expect(statusCode).toBe(200);
      expect(body.workflows.map((workflow) => workflow.id)).toEqual([his.id]);
      expect(body.workflows.map((workflow) => workflow.id)).not.toContain(successors.id);
      expect(body.workflows[0]?.lawyerEmail).toBe(newEmail);
    });

    it("reads one of his workflows, and not another lawyer's (404, as if it did not exist)", async () => {
      const mine = (await create()).body;
      const theirs = (await create({}, stranger.email)).body;

      const ok = await callRoute(app, 'getWorkflow', { token: owner.token, params: { id: mine.id } });
      const hidden = await callRoute(app, 'getWorkflow', { token: owner.token, params: { id: theirs.id } });

      expect(ok).toMatchObject({ statusCode: 200, body: mine });
      expect(hidden).toMatchObject({ statusCode: 404, body: { error: MESSAGES.workflow.notFound } });
    });

    it('answers 404 for an id that is not one', async () => {
      const { statusCode, body } = await callRoute(app, 'getWorkflow', {
        token: admin,
        params: { id: '42' },
      });

      expect(statusCode).toBe(404);
      expect(body).toEqual({ error: MESSAGES.workflow.notFound });
    });
  });

  describe('PUT /api/workflows/{id}', () => {
    it("applies an admin's edit; a new type brings its interval", async () => {
      const workflow = (await create()).body;
      app.clock.advance(1_000);

      const { statusCode, body } = await callRoute<Workflow>(app, 'updateWorkflow', {
        token: admin,
        params: { id: workflow.id },
        body: { name: 'Relance des clients', type: 'client_reminder' },
      });

      expect(statusCode).toBe(200);
      expect(body).toMatchObject({
        name: 'Relance des clients',
        type: 'client_reminder',
        cronSettings: { interval: 1 },
        createdAt: workflow.createdAt,
      });
      expect(body.updatedAt).not.toBe(workflow.updatedAt);
    });

    it('moves a workflow to another existing lawyer and refuses an unknown one', async () => {
      const workflow = (await create()).body;

      const moved = await callRoute<Workflow>(app, 'updateWorkflow', {
        token: admin,
        params: { id: workflow.id },
        body: { lawyerEmail: stranger.email },
      });
      const refused = await callRoute(app, 'updateWorkflow', {
        token: admin,
        params: { id: workflow.id },
        body: { lawyerEmail: 'inconnu@example.com' },
      });

      expect(moved.body.lawyerEmail).toBe(stranger.email);
      expect(refused).toMatchObject({ statusCode: 400, body: { error: MESSAGES.workflow.unknownLawyer } });
    });

    describe('scheduling across an edit', () => {
      const scheduled = async () => {
        const workflow = (await create()).body;
        await callRoute(app, 'toggleWorkflowScheduling', { token: admin, params: { id: workflow.id } });
        return workflow;
      };
      const edit = (id: string, body: Record<string, unknown>) =>
        callRoute<Workflow>(app, 'updateWorkflow', { token: admin, params: { id }, body });

      it('keeps a running schedule when the name, description, type or folder change', async () => {
        const workflow = await scheduled();

        const { body } = await edit(workflow.id, {
          ...workflowFields(owner.email, { name: 'Relance corrigée' }),
          webhookUrl: workflow.webhookUrl,
          type: 'client_reminder',
        });

        expect(body.cronSettings).toMatchObject({ enabled: true, interval: 1 });
      });

      it.each([
        ['a new webhook address', () => ({ webhookUrl: 'https://n8n.cabinet.fr/webhook/ailleurs' })],
        ['a new owner', () => ({ lawyerEmail: stranger.email })],
      ])('stops it on %s, and an explicit cronEnabled wins', async (_, changes) => {
        const workflow = await scheduled();

        const stopped = await edit(workflow.id, changes());
        const forced = await edit(workflow.id, {
          webhookUrl: 'https://n8n.cabinet.fr/webhook/encore-ailleurs',
          cronEnabled: true,
        });

        expect(stopped.body.cronSettings.enabled).toBe(false);
        expect(forced.body.cronSettings.enabled).toBe(true);
      });
    });

    it('answers 404 for a workflow that does not exist', async () => {
      const { statusCode, body } = await callRoute(app, 'updateWorkflow', {
        token: admin,
        params: { id: 'e4b0f8a2-0d7e-4b7e-8f43-0a4c9e1d2b3c' },
        body: { name: 'Inexistante' },
      });

      expect(statusCode).toBe(404);
      expect(body).toEqual({ error: MESSAGES.workflow.notFound });
    });
  });

  describe('DELETE /api/workflows/{id}', () => {
    it('deletes a workflow at once; its history is out of reach and left to the TTL', async () => {
      const workflow = (await create()).body;
      const execution = { PK: workflowKey(workflow.id).PK, SK: 'EXECUTION#2026-11-22T10:00:00.000Z#1' };
      await app.table.doc.send(new PutCommand({ TableName: app.table.name, Item: { ...execution } }));

      const { statusCode, body } = await callRoute(app, 'deleteWorkflow', {
        token: admin,
        params: { id: workflow.id },
      });

      expect(statusCode).toBe(200);
      expect(body).toEqual({ success: true });
      const again = await callRoute(app, 'getWorkflow', { token: admin, params: { id: workflow.id } });
      expect(again.statusCode).toBe(404);
      const history = await callRoute(app, 'workflowExecutions', {
        token: admin,
        params: { id: workflow.id },
      });
      expect(history.statusCode).toBe(404);
    });
  });

  describe('toggles', () => {
    it('flips the active flag from the value read, each time', async () => {
      const workflow = (await create()).body;

      const first = await callRoute<Workflow>(app, 'toggleWorkflowActive', {
        token: admin,
        params: { id: workflow.id },
      });
      const second = await callRoute<Workflow>(app, 'toggleWorkflowActive', {
        token: admin,
        params: { id: workflow.id },
      });

      expect(first.body.active).toBe(false);
      expect(second.body.active).toBe(true);
    });

    it('lets the owner switch scheduling on and off', async () => {
      const workflow = (await create()).body;

      const on = await callRoute<Workflow>(app, 'toggleWorkflowScheduling', {
        token: owner.token,
        params: { id: workflow.id },
      });
      const off = await callRoute<Workflow>(app, 'toggleWorkflowScheduling', {
        token: admin,
        params: { id: workflow.id },
      });

      expect(on.body.cronSettings.enabled).toBe(true);
      expect(off.body.cronSettings.enabled).toBe(false);
    });

    it("leaves another lawyer's workflow untouched and unrevealed", async () => {
      const theirs = (await create({}, stranger.email)).body;

      const { statusCode, body } = await callRoute(app, 'toggleWorkflowScheduling', {
        token: owner.token,
        params: { id: theirs.id },
      });

      expect(statusCode).toBe(404);
      expect(body).toEqual({ error: MESSAGES.workflow.notFound });
      const unchanged = await callRoute<Workflow>(app, 'getWorkflow', {
        token: admin,
        params: { id: theirs.id },
      });
      expect(unchanged.body.cronSettings.enabled).toBe(false);
    });
  });

  describe('tags and category (spec §3 optional display fields)', () => {
    it('stores them trimmed, repeats merged and a blank category as none, and shows them in lists', async () => {
      const { statusCode, body } = await create({
        tags: [' Urgent ', 'divorce', 'URGENT', ''],
        category: '  Droit de la famille ',
      });

      expect(statusCode).toBe(201);
      expect(body).toMatchObject({ tags: ['Urgent', 'divorce'], category: 'Droit de la famille' });
      const listed = await callRoute<WorkflowList>(app, 'listWorkflows', { token: admin });
      expect(listed.body.workflows.find((workflow) => workflow.id === body.id)).toMatchObject({
        tags: ['Urgent', 'divorce'],
        category: 'Droit de la famille',
      });
    });

    it('has none when not given, and an edit replaces them, or leaves them when it omits them', async () => {
      const workflow = (await create()).body;
      const edit = (body: Record<string, unknown>) =>
        callRoute<Workflow>(app, 'updateWorkflow', { token: admin, params: { id: workflow.id }, body });

      const set = await edit({ tags: ['succession'], category: 'Successions' });
      const renamed = await edit({ name: 'Relances succession' });
      const cleared = await edit({ tags: [], category: '  ' });

      expect(workflow).toMatchObject({ tags: [], category: null });
      expect(set.body).toMatchObject({ tags: ['succession'], category: 'Successions' });
      expect(renamed.body).toMatchObject({ tags: ['succession'], category: 'Successions' });
      expect(cleared.body).toMatchObject({ tags: [], category: null });
    });

    it.each([
      [
        '11 tags',
        { tags: Array.from({ length: 11 }, (_, index) => `etiquette-${index}`) },
        MESSAGES.validation.workflowTags,
      ],
      ['a tag of 31 characters', { tags: ['x'.repeat(31)] }, MESSAGES.validation.workflowTags],
      ['a category of 41 characters', { category: 'x'.repeat(41) }, MESSAGES.validation.workflowCategory],
      ['a tag that is not text', { tags: [42] }, 'Le champ tags[0] doit être une chaîne de caractères'],
      ['tags that are not a list', { tags: 'urgent' }, 'Le champ tags doit être une liste'],
    ])('refuses %s with a 400 naming the field, and stores nothing', async (label, overrides, message) => {
      const name = `Refusée : ${label}`;

      const { statusCode, body } = await create({ ...overrides, name });

      expect(statusCode).toBe(400);
      expect(body).toMatchObject({ error: message });
      const listed = await callRoute<WorkflowList>(app, 'listWorkflows', {
        token: admin,
        query: { limit: '100' },
      });
      expect(listed.body.workflows.map((workflow) => workflow.name)).not.toContain(name);
    });

    it('reads a workflow stored before tags existed as having none', async () => {
      const workflow = (await create()).body;
      const { Item } = await app.table.doc.send(
        new GetCommand({ TableName: app.table.name, Key: workflowKey(workflow.id) }),
      );
      const { tags: _tags, category: _category, ...older } = Item!;
      await app.table.doc.send(new PutCommand({ TableName: app.table.name, Item: older }));

      const { body } = await callRoute<Workflow>(app, 'getWorkflow', {
        token: admin,
        params: { id: workflow.id },
      });

      expect(body).toMatchObject({ tags: [], category: null });
    });
  });

  describe('folders of workflows', () => {
    it('files a workflow in a folder and takes it out again', async () => {
      const folder = (
        await callRoute<Folder>(app, 'createFolder', { token: admin, body: { name: 'Dupont' } })
      ).body;
      const workflow = (await create({ folderId: folder.id })).body;

      const out = await callRoute<Workflow>(app, 'updateWorkflow', {
        token: admin,
        params: { id: workflow.id },
        body: { folderId: null },
      });

      expect(workflow.folderId).toBe(folder.id);
      expect(out.body.folderId).toBeNull();
    });
  });
});
