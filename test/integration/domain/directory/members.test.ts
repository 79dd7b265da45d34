import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { SessionRepository } from '../../../../functions/data/identity/sessions';
import type { RouteName } from '../../../../shared/routes';
import type { LawyerLookupReply, LawyerSaveReply, WorkflowList } from '../../../../shared/schemas/directory';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import {
  callRoute,
  createSignedInLawyer,
  issueAndSignIn,
  lawyerFields,
  signIn,
  workflowFields,
} from '../../../support/directory';

/**
 * Issue 14 §1: a session keeps the e-mail its lawyer had at sign-in. When that e-mail changes (he
 * changes it himself on another session, or an admin renames him) and the old address is given to
 * another lawyer, the old session must not reach the new holder's workflows on any route.
 */
describe('ownership follows the licence, not the e-mail a session copied at sign-in', () => {
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  const sessionIdOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;

  /**
   * Lawyer D signs in twice (S1, S2); his e-mail moves from old to new (by `how`); the admin gives
   * the old e-mail to a new lawyer V and creates V's workflow W. Returns S2 and the ids involved.
   */
  async function staleSession(how: 'himself' | 'admin rename') {
    const oldEmail = `old.${randomUUID()}@example.com`;
    const newEmail = `new.${randomUUID()}@example.com`;
    const d = await createSignedInLawyer(app, admin, { email: oldEmail });
    const s2 = await signIn(app, d.licenseKey);
    if (!s2.token) throw new Error('second session refused');
    const ownWorkflow = await callRoute<Workflow>(app, 'createWorkflow', {
      token: admin,
      body: workflowFields(oldEmail, { name: 'Flux de D' }),
    });

    const moved =
      how === 'himself'
        ? await callRoute(app, 'saveProfile', {
            token: d.token,
            body: lawyerFields({ firstName: d.lawyer.firstName, email: newEmail }),
          })
        : await callRoute(app, 'saveLawyer', {
            token: admin,
            body: lawyerFields({ id: d.lawyer.id, email: newEmail, licenseKey: d.licenseKey }),
          });
    expect(moved.statusCode).toBe(200);

    const v = await callRoute<LawyerSaveReply>(app, 'saveLawyer', {
      token: admin,
      body: lawyerFields({ email: oldEmail, firstName: 'Victor' }),
    });
    expect(v.statusCode).toBe(201);
    const w = await callRoute<Workflow>(app, 'createWorkflow', {
      token: admin,
      body: workflowFields(oldEmail, { name: 'Flux de V' }),
    });
    expect(w.statusCode).toBe(201);

    // The premise: S2 still carries the old e-mail, now V's.
    expect((await new SessionRepository(app.table).get(sessionIdOf(s2.token)))?.email).toBe(oldEmail);
    return { s2: s2.token, w: w.body.id, own: ownWorkflow.body.id, v: v.body.lawyer, oldEmail, newEmail };
  }

  /** Every member route naming a workflow, called with S2 on V's workflow W. */
  const WORKFLOW_ROUTES: ReadonlyArray<{ route: RouteName; body?: (id: string) => unknown }> = [
    { route: 'getWorkflow' },
    { route: 'toggleWorkflowScheduling' },
    { route: 'workflowExecutions' },
    { route: 'executeWebhook', body: (id) => ({ workflowId: id }) },
  ];

  for (const how of ['himself', 'admin rename'] as const) {
    describe(`after ${how === 'himself' ? 'he changed his e-mail' : 'an admin renamed him'}`, () => {
      let scenario: Awaited<ReturnType<typeof staleSession>>;

      beforeAll(async () => {
        scenario = await staleSession(how);
      });

      for (const { route, body } of WORKFLOW_ROUTES) {
        it(`${route} answers 404 on the new holder's workflow`, async () => {
          const reply = await callRoute(app, route, {
            token: scenario.s2,
            ...(body ? { body: body(scenario.w) } : { params: { id: scenario.w } }),
          });
          expect(reply.statusCode).toBe(404);
        });
      }

      it("leaves the new holder's workflow untouched and uncalled", async () => {
        const w = await callRoute<Workflow>(app, 'getWorkflow', { token: admin, params: { id: scenario.w } });
        expect(w.body.cronSettings.enabled).toBe(false);
        const history = await callRoute<{ executions: unknown[] }>(app, 'workflowExecutions', {
          token: admin,
          params: { id: scenario.w },
        });
        expect(history.body.executions).toEqual([]);
      });

      it('lists his own workflows, never the new holder’s', async () => {
        const { body } = await callRoute<WorkflowList>(app, 'listWorkflows', { token: scenario.s2 });
        expect(body.workflows.map((workflow) => workflow.id)).toEqual([scenario.own]);
        const own = await callRoute(app, 'getWorkflow', { token: scenario.s2, params: { id: scenario.own } });
        expect(own.statusCode).toBe(200);
      });

      it('looks himself up, never the new holder of his old e-mail', async () => {
        const { statusCode, body } = await callRoute<LawyerLookupReply>(app, 'lookupLawyer', {
          token: scenario.s2,
          body: { email: scenario.oldEmail },
        });
        if (statusCode === 200) {
          expect(body.lawyer?.id).not.toBe(scenario.v.id);
          expect(body.email).not.toBe(scenario.oldEmail);
        } else {
          expect(statusCode).toBe(403);
        }
      });

      it("never shows the new holder's licence", async () => {
        const { statusCode, body } = await callRoute<{ license: { licenseKey: string } | null }>(
          app,
          'findLicenseByEmail',
          { token: scenario.s2, query: { userEmail: scenario.oldEmail, licenseType: 'lawyer' } },
        );
        if (statusCode === 200) expect(body.license?.licenseKey).not.toBe(scenario.v.licenseKey);
        else expect(statusCode).toBe(403);
      });
    });
  }
});
