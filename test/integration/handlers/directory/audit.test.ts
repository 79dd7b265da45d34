import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { MESSAGES } from '../../../../shared/messages';
import type { AuditPage, LawyerSaveReply } from '../../../../shared/schemas/directory';
import type { Folder } from '../../../../shared/schemas/folder';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, issueAndSignIn, lawyerFields, signIn, workflowFields } from '../../../support/directory';

describe('audit trail (GET /api/audit)', () => {
  let app: TestApp;
  let admin: string;
  /** The actions done in beforeAll, in order, with their targets. */
  const done: { action: string; target: string }[] = [];

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin', 'associe@cabinet.fr')).token;
    const step = async <T>(
      action: string,
      target: (reply: T) => string,
      call: () => Promise<{ body: T }>,
    ) => {
      app.clock.advance(1_000);
      const { body } = await call();
      done.push({ action, target: target(body) });
      return body;
    };

    const { lawyer } = await step<LawyerSaveReply>(
      'lawyer.create',
      (reply) => `lawyer:${reply.lawyer.id}`,
      () => callRoute(app, 'saveLawyer', { token: admin, body: lawyerFields() }),
    );
    await step<LawyerSaveReply>(
      'lawyer.update',
      (reply) => `lawyer:${reply.lawyer.id}`,
      () => callRoute(app, 'saveLawyer', { token: admin, body: lawyerFields({ email: lawyer.email }) }),
    );
    await step(
      'lawyer.secrets.reveal',
      () => `lawyer:${lawyer.id}`,
      () => callRoute(app, 'revealLawyerSecrets', { token: admin, params: { id: lawyer.id } }),
    );
    const folder = await step<Folder>(
      'folder.create',
      (reply) => `folder:${reply.id}`,
      () => callRoute(app, 'createFolder', { token: admin, body: { name: 'Dupont' } }),
    );
    await step(
      'folder.update',
      () => `folder:${folder.id}`,
      () =>
        callRoute(app, 'updateFolder', {
          token: admin,
          params: { id: folder.id },
          body: { name: 'Dupont SA' },
        }),
    );
    const workflow = await step<Workflow>(
      'workflow.create',
      (reply) => `workflow:${reply.id}`,
      () => callRoute(app, 'createWorkflow', { token: admin, body: workflowFields(lawyer.email) }),
    );
    const target = () => `workflow:${workflow.id}`;
    const params = { id: workflow.id };
    await step('workflow.update', target, () =>
      callRoute(app, 'updateWorkflow', { token: admin, params, body: { name: 'Gestion client' } }),
    );
    // Each switch is recorded by what it came to.
    await step('workflow.deactivate', target, () =>
      callRoute(app, 'toggleWorkflowActive', { token: admin, params }),
    );
    await step('workflow.activate', target, () =>
      callRoute(app, 'toggleWorkflowActive', { token: admin, params }),
    );
    await step('workflow.schedule', target, () =>
      callRoute(app, 'toggleWorkflowScheduling', { token: admin, params }),
    );
    await step('workflow.unschedule', target, () =>
      callRoute(app, 'toggleWorkflowScheduling', { token: admin, params }),
    );
    // The lawyer's own scheduling switch is not an admin action: not on the trail.
    const lawyerToken = (await signIn(app, lawyer.licenseKey!)).token;
    app.clock.advance(1_000);
    await callRoute(app, 'toggleWorkflowScheduling', { token: lawyerToken, params });
    await step('workflow.delete', target, () => callRoute(app, 'deleteWorkflow', { token: admin, params }));
    await step(
      'folder.delete',
      () => `folder:${folder.id}`,
      () => callRoute(app, 'deleteFolder', { token: admin, params: { id: folder.id } }),
    );
    await step(
      'lawyer.delete',
      () => `lawyer:${lawyer.id}`,
      () => callRoute(app, 'deleteLawyer', { token: admin, params: { id: lawyer.id } }),
    );
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  it('records every admin mutation and reveal, who, what, when and to what, newest first', async () => {
    const { statusCode, body } = await callRoute<AuditPage>(app, 'listAudit', { token: admin });

    expect(statusCode).toBe(200);
    expect(body.nextCursor).toBeNull();
    expect(body.entries.map(({ action, target }) => ({ action, target }))).toEqual([...done].reverse());
    expect(new Set(body.entries.map((entry) => entry.actorEmail))).toEqual(new Set(['associe@cabinet.fr']));
    const times = body.entries.map((entry) => entry.at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('pages through the trail with a limit and a cursor', async () => {
    const first = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '5' } });
    const second = await callRoute<AuditPage>(app, 'listAudit', {
      token: admin,
      query: { limit: '5', cursor: first.body.nextCursor! },
    });
    const all = await callRoute<AuditPage>(app, 'listAudit', { token: admin });

    expect(first.body.entries).toHaveLength(5);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect([...first.body.entries, ...second.body.entries]).toEqual(all.body.entries.slice(0, 10));
  });

  it.each([
    ['a limit above 100', { limit: '101' }],
    ['a limit that is no number', { limit: 'beaucoup' }],
    ['a cursor it did not write', { cursor: 'eyJQSyI6IkxBV1lFUiMxIn0' }],
  ])('refuses %s with a 400', async (_, query) => {
    const { statusCode, body } = await callRoute(app, 'listAudit', { token: admin, query });

    expect(statusCode).toBe(400);
    expect(body).toEqual({ error: expect.any(String) });
  });

  it('says which request was wrong in French for a foreign cursor', async () => {
    const { body } = await callRoute(app, 'listAudit', { token: admin, query: { cursor: 'pas-un-curseur' } });

    expect(body).toEqual({ error: MESSAGES.request.invalidCursor });
  });
});
