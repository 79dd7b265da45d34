import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { HealthReadRepository } from '../../../../functions/data/health/health-reads';
import { HealthSettingsRepository } from '../../../../functions/data/health/health-settings';
import { FAILING_SHARDS, PAUSED_PARTITION } from '../../../../functions/data/health/keys';
import type { WorkflowRecord } from '../../../../functions/domain/directory/ports';
import { toWorkflowHealth } from '../../../../functions/domain/health/automation-health';
import type { EndedCall } from '../../../../functions/domain/scheduling/ports';
import { automationHealthOf } from '../../../../functions/runtime/services/health';
import { MESSAGES } from '../../../../shared/messages';
import type { WorkflowList } from '../../../../shared/schemas/directory';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer, issueAndSignIn } from '../../../support/directory';
import { dynamoCallsOf } from '../../../support/dynamodb-calls';
import { workflowRecord } from '../../../support/records';

/**
 * The admin's health filters: 'Suspendue' reads the paused list (the health items the automatic
 * pause marks, in the switch's transaction), 'En échec' the failing set; either reads a page of
 * its own list, not the automations, and keeps the other filters on that page.
 */
describe('the automations’ health filters', () => {
  let app: TestApp;
  let admin: string;
  let lawyerEmail: string;
  const repository = () => new WorkflowRepository(app.table);

  /** A call of a due run that failed for good now. */
  const dueFailure = (): EndedCall => ({
    trigger: 'schedule',
    outcome: 'failed',
    attempt: 1,
    startedAt: app.clock.now().toISOString(),
    durationMs: 10,
    dueAt: app.clock.now().toISOString(),
    httpStatus: 500,
    message: MESSAGES.execution.serverError,
  });
  const manualSuccess = (): EndedCall => ({
    ...dueFailure(),
    trigger: 'manual',
    outcome: 'succeeded',
    dueAt: null,
    httpStatus: 200,
  });
  /** A call's end as the worker reports it, with the workflow as it is now. */
  const ended = async (id: string, call: EndedCall) => {
    const workflow = await repository().getById(id);
    if (workflow) await automationHealthOf(app).callsEnded([{ workflow, call }]);
  };
  const scheduled = (overrides: Partial<WorkflowRecord> = {}) =>
    workflowRecord({ lawyerEmail, cronEnabled: true, active: true, ...overrides });
  const create = async (record: WorkflowRecord) => {
    app.clock.advance(1_000);
    await repository().create({ ...record, createdAt: app.clock.now().toISOString() });
    return record;
  };
  const list = async (query: Record<string, string>, token = admin) =>
    callRoute<WorkflowList>(app, 'listWorkflows', { token, query });
  /** Every page of a filtered list, `limit` at a time. */
  const all = async (query: Record<string, string>) => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const { statusCode, body } = await list({ ...query, ...(cursor ? { cursor } : {}) });
      expect(statusCode).toBe(200);
      ids.push(...body.workflows.map((workflow) => workflow.id));
      cursor = body.nextCursor;
    } while (cursor);
    return ids;
  };
  /** The workflows the cards would call 'Suspendue', from their health as the API reads it. */
  const pausedByState = async (ids: readonly string[]) => {
    const health = new HealthReadRepository(app.table);
    const states = await Promise.all(
      ids.map(async (id) => {
        const workflow = await repository().getById(id);
        return workflow && toWorkflowHealth(await health.summary(id), workflow).state === 'paused'
          ? [id]
          : [];
      }),
    );
    return states.flat().sort();
  };
  /** The paused list's entries as stored (GSI1 `PAUSED`), by workflow. */
  const pausedEntries = async () => {
    const { Items = [] } = await app.table.doc.send(
      new QueryCommand({
        TableName: app.table.name,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': PAUSED_PARTITION },
      }),
    );
    return Items.map((item) => item.workflowId as string).sort();
  };

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
    lawyerEmail = (await createSignedInLawyer(app, admin)).email;
    // One failed due run pauses: the sequences below stay short.
    await new HealthSettingsRepository(app.table).saveSettings(
      { pauseAfterFailures: 1, alertEmail: null, dailyDigest: false },
      app.clock.now().toISOString(),
    );
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  it('finds the paused and the failing among many with one page of their own lists', async () => {
    const healthy = await Promise.all(Array.from({ length: 60 }, () => create(scheduled())));
    const paused = [await create(scheduled({ name: 'Relance suspendue' })), await create(scheduled())];
    // Failed once by a person's run: in the failing set, still scheduled (a person's run never pauses).
    const failedOnce = await create(scheduled({ name: 'Relance en échec' }));
    for (const workflow of paused) {
      app.clock.advance(1_000);
      await ended(workflow.id, dueFailure());
    }
    await ended(failedOnce.id, { ...dueFailure(), trigger: 'manual', dueAt: null });

    const pausedPage = await dynamoCallsOf(app.table, () =>
      repository().find({ limit: 50, health: 'paused' }),
    );
    const failingPage = await dynamoCallsOf(app.table, () =>
      repository().find({ limit: 50, health: 'failing' }),
    );

    // The latest pause first; the failing set's longest streak first (all 1 here: latest failure first).
    expect(await all({ health: 'paused' })).toEqual(paused.map((workflow) => workflow.id).reverse());
    expect((await all({ health: 'failing' })).sort()).toEqual(
      [...paused, failedOnce].map((workflow) => workflow.id).sort(),
    );
    // However many automations there are: one Query of the paused list, one per shard of the failing set.
    expect(pausedPage.commands.filter((command) => command === 'QueryCommand')).toHaveLength(1);
    expect(failingPage.commands.filter((command) => command === 'QueryCommand')).toHaveLength(FAILING_SHARDS);
    expect(healthy.length).toBe(60);
  });

  it('keeps the other filters, the search and the pages on a health list', async () => {
    const other = (await createSignedInLawyer(app, admin, { firstName: 'Paul', lastName: 'Girard' })).email;
    const mine = await create(scheduled({ lawyerEmail: other, name: 'Rappel audience Girard' }));
    await ended(mine.id, dueFailure());

    const byLawyer = await list({ health: 'paused', lawyerEmail: other });
    const bySearch = await list({ health: 'paused', q: 'rappel audience' });
    const byState = await list({ health: 'paused', active: 'false' });
    const ids = await all({ health: 'paused', limit: '1' });

    expect(byLawyer.body.workflows.map((workflow) => workflow.id)).toEqual([mine.id]);
    expect(byLawyer.body.owners).toEqual([{ email: other, firstName: 'Paul', lastName: 'Girard' }]);
    expect(bySearch.body.workflows.map((workflow) => workflow.name)).toEqual(['Rappel audience Girard']);
    expect(byState.body.workflows).toEqual([]);
    expect(ids[0]).toBe(mine.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(await pausedByState(ids));
  });

  it('refuses a health it does not know, naming the parameter, and a cursor of another filter', async () => {
    const first = await list({ health: 'paused', limit: '1' });
    const bad = await list({ health: 'degraded' });
    const crossed = await list({ health: 'failing', cursor: first.body.nextCursor ?? '' });

    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.body)).toContain(MESSAGES.request.invalidHealthFilter);
    expect(crossed.statusCode).toBe(400);
  });

  it("leaves the paused list at 'Reprendre', at the switch turned on by hand, and at the deletion", async () => {
    const resumed = await create(scheduled());
    const switchedOn = await create(scheduled());
    const deleted = await create(scheduled());
    for (const workflow of [resumed, switchedOn, deleted]) await ended(workflow.id, dueFailure());
    const pausedBefore = await all({ health: 'paused' });

    const resume = await callRoute(app, 'resumeWorkflow', { token: admin, params: { id: resumed.id } });
    await callRoute(app, 'toggleWorkflowScheduling', { token: admin, params: { id: switchedOn.id } });
    await callRoute(app, 'deleteWorkflow', { token: admin, params: { id: deleted.id } });
    const pausedAfter = await all({ health: 'paused' });

    expect(pausedBefore).toEqual(expect.arrayContaining([resumed.id, switchedOn.id, deleted.id]));
    expect(resume.statusCode).toBe(200);
    expect(pausedAfter).not.toContain(resumed.id);
    expect(pausedAfter).not.toContain(switchedOn.id);
    expect(pausedAfter).not.toContain(deleted.id);
    // The entry went with the pause record and with the workflow; the one switched on by hand keeps
    // its record (its card is no longer 'Suspendue') and is left out by the read.
    const entries = await pausedEntries();
    expect(entries).not.toContain(resumed.id);
    expect(entries).not.toContain(deleted.id);
  });

  it('keeps the paused list exactly the automations in the paused state, whatever happens to them', async () => {
    type Step = {
      readonly workflow: number;
      readonly action: 'fail' | 'resume' | 'switch' | 'succeed' | 'delete';
    };
    const step = fc.record({
      workflow: fc.integer({ min: 0, max: 2 }),
      action: fc.constantFrom<Step['action']>('fail', 'fail', 'resume', 'switch', 'succeed', 'delete'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const workflows = await Promise.all([0, 1, 2].map(() => create(scheduled())));
        const ids = workflows.map((workflow) => workflow.id);
        for (const { workflow, action } of steps) {
          const id = ids[workflow] as string;
          app.clock.advance(1_000);
          if (action === 'fail') await ended(id, dueFailure());
          if (action === 'succeed') await ended(id, manualSuccess());
          if (action === 'resume') await callRoute(app, 'resumeWorkflow', { token: admin, params: { id } });
          if (action === 'switch')
            await callRoute(app, 'toggleWorkflowScheduling', { token: admin, params: { id } });
          if (action === 'delete') await callRoute(app, 'deleteWorkflow', { token: admin, params: { id } });
        }

        const listed = (await all({ health: 'paused' })).filter((id) => ids.includes(id)).sort();
        const entries = (await pausedEntries()).filter((id) => ids.includes(id));
        const summaries = await Promise.all(
          ids.map(async (id) => ({ id, summary: await new HealthReadRepository(app.table).summary(id) })),
        );
        const recorded = summaries.filter(({ summary }) => summary.pausedAt !== null).map(({ id }) => id);

        expect(listed).toEqual(await pausedByState(ids));
        // An entry exactly while a pause is recorded, none once the workflow is gone.
        expect(entries).toEqual(recorded.sort());
      }),
      { numRuns: 12, seed: 36 },
    );
  });
});
