import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import type { RouteName } from '../../../../shared/routes';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer, issueAndSignIn, workflowFields } from '../../../support/directory';
import { dynamoCallsOf } from '../../../support/dynamodb-calls';

/** A list page: the session and licence in one read, one Query of the list, the page's items. */
const CALLS_PER_PAGE = 3;

/**
 * Every list page the admin screens read costs at most three DynamoDB calls, counted on the real
 * client against DynamoDB Local: the first page and a next one, of each list.
 */
describe('the DynamoDB calls of a list page', () => {
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
    const lawyers = await Promise.all(
      ['Dupont', 'Martin', 'Lefèvre'].map((lastName) => createSignedInLawyer(app, admin, { lastName })),
    );
    for (let index = 0; index < 9; index++) {
      app.clock.advance(1_000);
      const owner = lawyers[index % lawyers.length]?.email as string;
      await callRoute<Workflow>(app, 'createWorkflow', { token: admin, body: workflowFields(owner) });
      await callRoute(app, 'createFolder', { token: admin, body: { name: `Dossier ${index}` } });
    }
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  it("a lawyer's own automations: each page in at most three calls, two waiting for each other", async () => {
    // Arrange: a lawyer with more automations than a page.
    const lawyer = await createSignedInLawyer(app, admin, { lastName: 'Bernard' });
    for (let index = 0; index < 5; index++) {
      app.clock.advance(1_000);
      await callRoute<Workflow>(app, 'createWorkflow', { token: admin, body: workflowFields(lawyer.email) });
    }
    let cursor: string | null = null;
    for (const page of ['first', 'next']) {
      // Act
      let reply:
        | { statusCode: number; body: { workflows: Workflow[]; nextCursor: string | null } }
        | undefined;
      const calls = await dynamoCallsOf(app.table, async () => {
        reply = await callRoute<{ workflows: Workflow[]; nextCursor: string | null }>(app, 'listWorkflows', {
          token: lawyer.token,
          query: cursor ? { limit: '3', cursor } : { limit: '3' },
        });
      });

      // Assert: his own, read beside his session's check.
      expect(reply?.statusCode, page).toBe(200);
      expect(reply?.body.workflows.every((workflow) => workflow.lawyerEmail === lawyer.email)).toBe(true);
      expect(calls.commands.length, `${page} page: ${calls.commands.join(', ')}`).toBeLessThanOrEqual(
        CALLS_PER_PAGE,
      );
      expect(calls.inSequence, `${page} page`).toBeLessThanOrEqual(2);
      cursor = reply?.body.nextCursor ?? null;
      if (page === 'first') expect(cursor).not.toBeNull();
    }
  });

  it.each<[RouteName, Record<string, string>]>([
    ['listWorkflows', { limit: '4' }],
    ['listLawyers', { limit: '2' }],
    ['listFolders', { limit: '4' }],
    ['listAudit', { limit: '4' }],
  ])('%s: each page in at most three calls', async (name, query) => {
    let cursor: string | null = null;
    for (const page of ['first', 'next']) {
      let reply: { statusCode: number; body: { nextCursor: string | null } } | undefined;
      const calls = await dynamoCallsOf(app.table, async () => {
        reply = await callRoute<{ nextCursor: string | null }>(app, name, {
          token: admin,
          query: cursor ? { ...query, cursor } : query,
        });
      });
      expect(reply?.statusCode, page).toBe(200);
      expect(calls.commands.length, `${page} page: ${calls.commands.join(', ')}`).toBeLessThanOrEqual(
        CALLS_PER_PAGE,
      );
      // The automations' page is read beside the session's check: two calls wait for each other.
      if (name === 'listWorkflows') expect(calls.inSequence, `${page} page`).toBeLessThanOrEqual(2);
      cursor = reply?.body.nextCursor ?? null;
      if (page === 'first') expect(cursor).not.toBeNull();
    }
  });
});
