import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { LIST_PAGE } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import { ROUTES, type RouteDefinition, type RouteName } from '../../../shared/routes';
import type { Folder } from '../../../shared/schemas/folder';
import type { Workflow } from '../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../support/app';
import { callRoute, createSignedInLawyer, issueAndSignIn, workflowFields } from '../../support/directory';

type Page = { nextCursor: string | null } & Record<string, unknown>;

/**
 * Every list call answers a page at a time (limit, nextCursor). Paging through gives every item
 * once, newest first; a cursor the server did not give for that very list is a 400 naming the
 * field, never a 500 and never another lawyer's data.
 */
describe('list pagination', () => {
  let app: TestApp;
  let admin: string;
  let owner: Awaited<ReturnType<typeof createSignedInLawyer>>;
  let neighbour: Awaited<ReturnType<typeof createSignedInLawyer>>;
  const ownWorkflows: Workflow[] = [];

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
    owner = await createSignedInLawyer(app, admin);
    neighbour = await createSignedInLawyer(app, admin);
    for (let index = 0; index < 7; index++) {
      app.clock.advance(1_000);
      const { body } = await callRoute<Workflow>(app, 'createWorkflow', {
        token: admin,
        body: workflowFields(owner.email, { name: `Automatisation ${index}` }),
      });
      ownWorkflows.unshift(body);
      await callRoute<Workflow>(app, 'createWorkflow', {
        token: admin,
        body: workflowFields(neighbour.email),
      });
      await callRoute<Folder>(app, 'createFolder', { token: admin, body: { name: `Dossier ${index}` } });
    }
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  /** Follows nextCursor to the end; returns the pages' items. */
  async function allPages(name: RouteName, token: string, field: string, limit: number) {
    const pages: unknown[][] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = { limit: String(limit), ...(cursor ? { cursor } : {}) };
      const { statusCode, body } = await callRoute<Page>(app, name, { token, query });
      expect(statusCode).toBe(200);
      const items = body[field] as unknown[];
      expect(items.length).toBeLessThanOrEqual(limit);
      pages.push(items);
      cursor = body.nextCursor;
    } while (cursor);
    return pages;
  }

  it("pages through a lawyer's own workflows, newest first, each once", async () => {
    const pages = await allPages('listWorkflows', owner.token, 'workflows', 3);

    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.flat().map((workflow) => (workflow as Workflow).id)).toEqual(
      ownWorkflows.map((workflow) => workflow.id),
    );
  });

  it.each([
    ['listWorkflows', 'workflows'],
    ['listLawyers', 'lawyers'],
    ['listFolders', 'folders'],
  ] as const)('pages through %s for an admin without repeating an item', async (name, field) => {
    const whole = (await callRoute<Page>(app, name, { token: admin, query: { limit: '100' } })).body;
    const pages = await allPages(name, admin, field, 2);

    const ids = pages.flat().map((item) => (item as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual((whole[field] as { id: string }[]).map((item) => item.id));
  });

  it('answers the default page size without a limit', async () => {
    const { body } = await callRoute<Page>(app, 'listWorkflows', { token: admin });

    expect((body.workflows as unknown[]).length).toBeLessThanOrEqual(LIST_PAGE.default);
  });

  it('pages through the execution history of a workflow', async () => {
    const { statusCode, body } = await callRoute<Page>(app, 'workflowExecutions', {
      token: owner.token,
      params: { id: ownWorkflows[0]!.id },
      query: { limit: '5' },
    });

    expect(statusCode).toBe(200);
    expect(body).toEqual({ executions: [], nextCursor: null });
  });

  it.each(['0', '101', '2.5', 'beaucoup', '-1'])(
    'refuses limit=%s with a French message naming it',
    async (limit) => {
      const { statusCode, body } = await callRoute(app, 'listWorkflows', { token: admin, query: { limit } });

      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: MESSAGES.request.invalidLimit });
    },
  );

  it("refuses another lawyer's cursor: a 400, not his neighbour's workflows", async () => {
    const { body: neighbourPage } = await callRoute<Page>(app, 'listWorkflows', {
      token: neighbour.token,
      query: { limit: '1' },
    });
    expect(neighbourPage.nextCursor).not.toBeNull();

    const { statusCode, body } = await callRoute(app, 'listWorkflows', {
      token: owner.token,
      query: { cursor: neighbourPage.nextCursor ?? '' },
    });

    expect(statusCode).toBe(400);
    expect(body).toEqual({ error: MESSAGES.request.invalidCursor });
  });

  it("refuses a cursor of another list (the admin's folders used for workflows)", async () => {
    const { body: folders } = await callRoute<Page>(app, 'listFolders', {
      token: admin,
      query: { limit: '1' },
    });

    const { statusCode, body } = await callRoute(app, 'listWorkflows', {
      token: admin,
      query: { cursor: folders.nextCursor ?? '' },
    });

    expect(statusCode).toBe(400);
    expect(body).toEqual({ error: MESSAGES.request.invalidCursor });
  });

  it('answers a 400 naming the cursor for any string that is not a cursor it gave', async () => {
    const { body: first } = await callRoute<Page>(app, 'listWorkflows', {
      token: owner.token,
      query: { limit: '1' },
    });
    const genuine = first.nextCursor ?? '';
    const handWritten = Buffer.from(
      JSON.stringify({ PK: 'WORKFLOW#x', SK: 'WORKFLOW', GSI2PK: `OWNER#${neighbour.email}`, GSI2SK: 'z' }),
    ).toString('base64url');
    const candidates = [
      'pas-un-curseur',
      '{}',
      Buffer.from('null').toString('base64url'),
      Buffer.from('{"PK":1}').toString('base64url'),
      // Another lawyer's partition, written by hand.
      handWritten,
      // The genuine cursor with each character in turn changed.
      ...[...genuine].map(
        (character, at) => genuine.slice(0, at) + (character === 'A' ? 'B' : 'A') + genuine.slice(at + 1),
      ),
    ];
    for (const cursor of candidates) {
      const { statusCode, body } = await callRoute<Page | { error: string }>(app, 'listWorkflows', {
        token: owner.token,
        query: { cursor },
      });
      if (statusCode === 200) {
        // A change that still reads as a position in his own list: only his own workflows.
        const ids = ((body as Page).workflows as Workflow[]).map((workflow) => workflow.id);
        for (const id of ids) expect(ownWorkflows.map((workflow) => workflow.id)).toContain(id);
      } else {
        expect(statusCode, cursor).toBe(400);
        expect(body).toEqual({ error: MESSAGES.request.invalidCursor });
      }
    }
  });

  it.each(Object.entries(ROUTES).filter(([, route]) => 'query' in route))(
    '%s refuses a query its schema refuses, with the schema’s French message, before its handler',
    async (name, route) => {
      const query = {
        limit: '0',
        ids: 'pas-un-identifiant',
        userEmail: 'pas-une-adresse',
        lawyerId: 'pas-un-identifiant',
      };
      const expected = (route as RouteDefinition).query?.safeParse(query);

      const { statusCode, body } = await callRoute(app, name as RouteName, {
        token: admin,
        params: { id: ownWorkflows[0]!.id },
        query,
      });

      expect(expected?.success).toBe(false);
      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: expected?.error?.issues[0]?.message });
    },
  );
});
