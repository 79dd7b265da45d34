import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { MESSAGES } from '../../../../shared/messages';
import type { RouteName } from '../../../../shared/routes';
import type { WorkflowList } from '../../../../shared/schemas/directory';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import {
  callRoute,
  createSignedInLawyer,
  issueAndSignIn,
  lawyerFields,
  workflowFields,
} from '../../../support/directory';

/**
 * The admin's automation search also reads their category and tags and filters by lawyer and by
 * state; a member searches his own list; and no search term, however odd, makes a 5xx.
 */
describe('the automations’ searches and filters', () => {
  let app: TestApp;
  let admin: string;
  let sophie: Awaited<ReturnType<typeof createSignedInLawyer>>;
  let paul: Awaited<ReturnType<typeof createSignedInLawyer>>;

  const list = async (token: string, query: Record<string, string>) =>
    callRoute<WorkflowList>(app, 'listWorkflows', { token, query });
  const names = (page: WorkflowList) => page.workflows.map((workflow) => workflow.name).sort();

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
    sophie = await createSignedInLawyer(app, admin, { firstName: 'Sophie', lastName: 'Bernard' });
    paul = await createSignedInLawyer(app, admin, { firstName: 'Paul', lastName: 'Girard' });
    const automations = [
      { owner: sophie, name: 'Relance pièces', category: 'Droit de la famille', tags: ['urgent'] },
      { owner: sophie, name: 'Classement courriers', category: 'Immobilier', tags: ['mensuel'] },
      { owner: paul, name: 'Relance audiences', category: 'Famille', tags: [] },
      { owner: paul, name: 'Résumé hebdomadaire', category: null, tags: ['Urgent', 'RGPD'] },
    ];
    for (const { owner, ...fields } of automations) {
      app.clock.advance(1_000);
      const { body } = await callRoute<Workflow>(app, 'createWorkflow', {
        token: admin,
        body: workflowFields(owner.email, { ...fields, description: 'Traite les dossiers du cabinet' }),
      });
      if (fields.name === 'Relance audiences') {
        await callRoute(app, 'toggleWorkflowScheduling', { token: admin, params: { id: body.id } });
      }
      if (fields.name === 'Classement courriers') {
        await callRoute(app, 'toggleWorkflowActive', { token: admin, params: { id: body.id } });
      }
    }
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  it('finds automations by their category and their tags, without case or accents', async () => {
    expect(names((await list(admin, { q: 'famille' })).body)).toEqual([
      'Relance audiences',
      'Relance pièces',
    ]);
    expect(names((await list(admin, { q: 'URGENT' })).body)).toEqual([
      'Relance pièces',
      'Résumé hebdomadaire',
    ]);
    expect(names((await list(admin, { q: 'relance immo' })).body)).toEqual([]);
    expect(names((await list(admin, { q: 'rgpd resume' })).body)).toEqual(['Résumé hebdomadaire']);
  });

  it('finds an admin’s automations by their lawyer’s name, as it is after a rename', async () => {
    expect(names((await list(admin, { q: 'sophie' })).body)).toEqual([
      'Classement courriers',
      'Relance pièces',
    ]);
    expect(names((await list(admin, { q: 'girard relance' })).body)).toEqual(['Relance audiences']);

    const renamed = await callRoute(app, 'saveLawyer', {
      token: admin,
      body: lawyerFields({
        firstName: 'Sophia',
        lastName: 'Bernard',
        email: sophie.email,
        licenseKey: sophie.licenseKey,
      }),
    });
    expect(renamed.statusCode).toBe(200);

    expect(names((await list(admin, { q: 'sophia' })).body)).toEqual([
      'Classement courriers',
      'Relance pièces',
    ]);
    expect(names((await list(admin, { q: 'sophie' })).body)).toEqual([]);
    // A member's own search reads the same text.
    expect(names((await list(sophie.token, { q: 'bernard relance' })).body)).toEqual(['Relance pièces']);
  });

  it('keeps one lawyer’s automations, active or not, scheduled or not, with or without a search', async () => {
    expect(names((await list(admin, { lawyerEmail: sophie.email })).body)).toEqual([
      'Classement courriers',
      'Relance pièces',
    ]);
    expect(names((await list(admin, { lawyerEmail: paul.email, q: 'relance' })).body)).toEqual([
      'Relance audiences',
    ]);
    expect(names((await list(admin, { scheduled: 'true' })).body)).toEqual(['Relance audiences']);
    expect(names((await list(admin, { active: 'false' })).body)).toEqual(['Classement courriers']);
    expect(names((await list(admin, { q: 'relance', scheduled: 'false' })).body)).toEqual(['Relance pièces']);
    // The lawyer's name comes with his automations, as on every admin page.
    expect((await list(admin, { lawyerEmail: paul.email })).body.owners).toEqual([
      { email: paul.email, firstName: 'Paul', lastName: 'Girard' },
    ]);
  });

  it('lets a member search his own list only, whatever lawyer he names', async () => {
    expect(names((await list(sophie.token, { q: 'relance' })).body)).toEqual(['Relance pièces']);
    expect(names((await list(sophie.token, { q: 'urgent', lawyerEmail: paul.email })).body)).toEqual([
      'Relance pièces',
    ]);
  });

  it('refuses a filter that is not one with a French 400 naming it', async () => {
    const refusals = [
      [{ scheduled: 'oui' }, MESSAGES.request.invalidScheduled],
      [{ lawyerEmail: 'pas-une-adresse' }, MESSAGES.request.invalidLawyerEmail],
    ] as const;
    for (const [query, message] of refusals) {
      const { statusCode, body } = await list(admin, query);
      expect(statusCode).toBe(400);
      expect(body).toEqual({ error: message });
    }
  });

  it('refuses the cursor of another lawyer’s filter with ‘Curseur invalide’', async () => {
    const first = (await list(admin, { lawyerEmail: sophie.email, limit: '1' })).body;
    const { statusCode, body } = await list(admin, {
      lawyerEmail: paul.email,
      limit: '1',
      cursor: first.nextCursor ?? '',
    });
    expect(statusCode).toBe(400);
    expect(body).toEqual({ error: MESSAGES.request.invalidCursor });
  });

  it('answers any search term with a page, or over 200 characters a French 400 naming q, never a 5xx', async () => {
    const term = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.constantFrom('%', '*', "'", '"', '%*\'"', '😀', '👩‍⚖️ famille', 'é', ' ', '\u0000', '\\'),
      fc.string({ minLength: 195, maxLength: 210 }),
      fc.string({ unit: 'grapheme', minLength: 190, maxLength: 220 }),
    );
    const route = fc.constantFrom<RouteName>('listWorkflows', 'listLawyers', 'listFolders');
    await fc.assert(
      fc.asyncProperty(term, route, fc.boolean(), async (q, name, asMember) => {
        const token = asMember && name === 'listWorkflows' ? sophie.token : admin;
        const { statusCode, body } = await callRoute<Record<string, unknown>>(app, name, {
          token,
          query: { q },
        });
        // Within the limit a page; beyond it (as the query string reads it) the French 400 naming q.
        if (q.length <= 200) expect(statusCode).toBe(200);
        if (statusCode === 400) expect(body).toEqual({ error: MESSAGES.request.searchTooLong });
        else {
          expect(statusCode).toBe(200);
          expect(body.nextCursor === null || typeof body.nextCursor === 'string').toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});
