import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { CounterRepository } from '../../../../functions/data/directory/counters';
import { recount } from '../../../../functions/domain/directory/workflow-counts';
import { WORKFLOW_TYPES } from '../../../../shared/constants';
import type { DirectoryCounts, LawyerSaveReply } from '../../../../shared/schemas/directory';
import type { Folder } from '../../../../shared/schemas/folder';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer, issueAndSignIn, workflowFields } from '../../../support/directory';

/** One thing an admin does to the directory; indices pick among what exists when it runs. */
type Step =
  | { readonly kind: 'createFolder' }
  | { readonly kind: 'deleteFolder'; readonly folder: number }
  | { readonly kind: 'create'; readonly owner: number; readonly folder: number | null; readonly type: number }
  | { readonly kind: 'rename'; readonly workflow: number; readonly name: string }
  | { readonly kind: 'file'; readonly workflow: number; readonly folder: number | null }
  | { readonly kind: 'move'; readonly workflow: number; readonly owner: number; readonly type: number }
  | { readonly kind: 'toggleActive' | 'toggleScheduling' | 'delete'; readonly workflow: number }
  | { readonly kind: 'changeEmail'; readonly owner: number };

const index = fc.nat({ max: 20 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ kind: 'createFolder' as const }),
  fc.record({ kind: fc.constant('deleteFolder' as const), folder: index }),
  fc.record({
    kind: fc.constant('create' as const),
    owner: index,
    folder: fc.option(index, { nil: null }),
    type: index,
  }),
  fc.record({
    kind: fc.constant('rename' as const),
    workflow: index,
    name: fc.constantFrom('Équipe Dupont', 'Client 7'),
  }),
  fc.record({ kind: fc.constant('file' as const), workflow: index, folder: fc.option(index, { nil: null }) }),
  fc.record({ kind: fc.constant('move' as const), workflow: index, owner: index, type: index }),
  fc.record({
    kind: fc.constantFrom('toggleActive' as const, 'toggleScheduling' as const, 'delete' as const),
    workflow: index,
  }),
  fc.record({ kind: fc.constant('changeEmail' as const), owner: index }),
);

const pick = <T>(items: readonly T[], at: number): T | undefined => items[at % Math.max(items.length, 1)];

/** Every item of a list, page after page, as the admin reads them. */
async function everything<T>(
  app: TestApp,
  token: string,
  name: 'listWorkflows' | 'listFolders',
  field: string,
) {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const { body } = await callRoute<Record<string, unknown>>(app, name, {
      token,
      query: { limit: '100', ...(cursor ? { cursor } : {}) },
    });
    items.push(...(body[field] as T[]));
    cursor = body.nextCursor as string | null;
  } while (cursor);
  return items;
}

/**
 * The counters the screens show (everyone's, each lawyer's, each folder's, the numbers of lawyers
 * and folders) are written with the changes they count: after any sequence of creations, edits,
 * filings, moves, switches and deletions, each equals a recount of the automations.
 */
describe('the directory counters', () => {
  it('equal a recount after any sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 18 }), async (steps) => {
        const app = await createTestApp(inject('dynamoEndpoint'));
        try {
          const admin = (await issueAndSignIn(app, 'admin')).token;
          const owners = await Promise.all([0, 1, 2].map(() => createSignedInLawyer(app, admin)));
          const emails = owners.map((owner) => owner.email);
          const folders: Folder[] = [];
          const workflows: Workflow[] = [];
          for (const action of steps) {
            app.clock.advance(1_000);
            const workflow = 'workflow' in action ? pick(workflows, action.workflow) : undefined;
            const reply = await (async () => {
              switch (action.kind) {
                case 'createFolder': {
                  const created = await callRoute<Folder>(app, 'createFolder', {
                    token: admin,
                    body: { name: 'Dossier' },
                  });
                  folders.push(created.body);
                  return created;
                }
                case 'deleteFolder': {
                  const folder = pick(folders, action.folder);
                  if (!folder) return null;
                  folders.splice(folders.indexOf(folder), 1);
                  return callRoute(app, 'deleteFolder', { token: admin, params: { id: folder.id } });
                }
                case 'create': {
                  const folder = action.folder === null ? undefined : pick(folders, action.folder);
                  const created = await callRoute<Workflow>(app, 'createWorkflow', {
                    token: admin,
                    body: workflowFields(pick(emails, action.owner) as string, {
                      type: pick(WORKFLOW_TYPES, action.type),
                      folderId: folder?.id ?? null,
                    }),
                  });
                  if (created.statusCode === 201) workflows.push(created.body);
                  return created;
                }
                case 'rename':
                  return workflow
                    ? callRoute(app, 'updateWorkflow', {
                        token: admin,
                        params: { id: workflow.id },
                        body: { name: action.name },
                      })
                    : null;
                case 'file': {
                  const folder = action.folder === null ? undefined : pick(folders, action.folder);
                  return workflow
                    ? callRoute(app, 'updateWorkflow', {
                        token: admin,
                        params: { id: workflow.id },
                        body: { folderId: folder?.id ?? null },
                      })
                    : null;
                }
                case 'move':
                  return workflow
                    ? callRoute(app, 'updateWorkflow', {
                        token: admin,
                        params: { id: workflow.id },
                        body: {
                          lawyerEmail: pick(emails, action.owner),
                          type: pick(WORKFLOW_TYPES, action.type),
                        },
                      })
                    : null;
                case 'toggleActive':
                  return workflow
                    ? callRoute(app, 'toggleWorkflowActive', { token: admin, params: { id: workflow.id } })
                    : null;
                case 'toggleScheduling':
                  return workflow
                    ? callRoute(app, 'toggleWorkflowScheduling', {
                        token: admin,
                        params: { id: workflow.id },
                      })
                    : null;
                case 'delete':
                  if (!workflow) return null;
                  workflows.splice(workflows.indexOf(workflow), 1);
                  return callRoute(app, 'deleteWorkflow', { token: admin, params: { id: workflow.id } });
                case 'changeEmail': {
                  const at = action.owner % owners.length;
                  const owner = owners[at] as (typeof owners)[number];
                  const email = `nouvelle.${emails[at]}`;
                  const saved = await callRoute<LawyerSaveReply>(app, 'saveLawyer', {
                    token: admin,
                    body: {
                      firstName: owner.lawyer.firstName,
                      lastName: owner.lawyer.lastName,
                      email,
                      phoneNumber: '0142000000',
                      officeName: 'Cabinet Martin',
                      licenseKey: owner.licenseKey,
                    },
                  });
                  if (saved.statusCode === 200) emails[at] = email;
                  return saved;
                }
              }
            })();
            // A change refused (a folder deleted meanwhile...) is a 4xx, never a 5xx.
            if (reply) expect(reply.statusCode, JSON.stringify(reply.body)).toBeLessThan(500);
          }

          const all = await everything<Workflow>(app, admin, 'listWorkflows', 'workflows');
          const listedFolders = await everything<Folder>(app, admin, 'listFolders', 'folders');
          const counted = (await callRoute<DirectoryCounts>(app, 'directoryCounts', { token: admin })).body;
          const counts = (items: readonly Workflow[]) =>
            recount(
              items.map((item) => ({
                id: item.id,
                lawyerEmail: item.lawyerEmail,
                folderId: item.folderId,
                active: item.active,
                cronEnabled: item.cronSettings.enabled,
                type: item.type,
              })),
            );

          expect(counted.workflows).toEqual(counts(all));
          expect(counted.lawyers).toBe(owners.length);
          expect(counted.folders).toBe(listedFolders.length);
          const counters = new CounterRepository(app.table);
          for (const email of new Set([...emails, ...owners.map((owner) => owner.email)])) {
            expect(await counters.ofOwner(email), email).toEqual(
              counts(all.filter((item) => item.lawyerEmail === email)),
            );
          }
          for (const folder of listedFolders) {
            const { total, active, scheduled } = counts(all.filter((item) => item.folderId === folder.id));
            expect(folder.counts, folder.id).toEqual({ total, active, scheduled });
          }
        } finally {
          await disposeTestApp(app);
        }
      }),
      { numRuns: 12 },
    );
  }, 600_000);
});
