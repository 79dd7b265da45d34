import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { workflowKey } from '../../../../functions/data/directory/keys';
import { createDataRetentionHandler } from '../../../../functions/handlers/billing/data-retention';
import type { LawyerSaveReply, WorkflowList } from '../../../../shared/schemas/directory';
import type { Workflow } from '../../../../shared/schemas/workflow';
import {
  type BillingTestbed,
  buyLicense,
  endOfPaidPeriod,
  startBillingTestbed,
} from '../../../support/billing';
import {
  callRoute,
  createSignedInLawyer,
  issueAndSignIn,
  lawyerFields,
  workflowFields,
} from '../../../support/directory';

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * A workflow on a one-minute interval gathers about 43,000 calls in 30 days. Ten times what a
 * request may touch is enough to tell a walk of the history, and keeps the seeding short on a
 * loaded machine.
 */
const HISTORY_SIZE = 2_000;
/** Far more than deleting a workflow, a lawyer or a purge needs, far less than walking the history. */
const MOST_ITEMS_TOUCHED = 200;

/**
 * Deleting a workflow, a lawyer, or purging a cancelled firm must not walk the execution history
 * inside the request: the history is left to its TTL. Each test seeds `HISTORY_SIZE` history items
 * straight into the table, then counts the DynamoDB calls and the items they read or wrote during
 * the request (a counting middleware on the document client), and checks what a user sees.
 */
describe('deletes with a large execution history', () => {
  let bed: BillingTestbed;
  let admin: string;
  const touched = { calls: 0, items: 0 };

  beforeAll(async () => {
    bed = await startBillingTestbed();
    admin = (await issueAndSignIn(bed.deps, 'admin')).token;
    // Counts every command and every item it reads or writes; reset before each measured request.
    bed.deps.table.doc.middlewareStack.add(
      (next) => async (args) => {
        touched.calls += 1;
        const input = args.input as {
          RequestItems?: Record<string, unknown[] | { Keys?: unknown[] }>;
          TransactItems?: unknown[];
        };
        // BatchWriteItem's requests, BatchGetItem's keys, a transaction's items.
        for (const requests of Object.values(input.RequestItems ?? {})) {
          touched.items += Array.isArray(requests) ? requests.length : (requests.Keys?.length ?? 0);
        }
        touched.items += input.TransactItems?.length ?? 0;
        const result = await next(args);
        const output = result.output as { Items?: unknown[]; Item?: unknown; Responses?: unknown };
        touched.items += output.Items?.length ?? (output.Item ? 1 : 0);
        return result;
      },
      { step: 'initialize', name: 'countingTouches' },
    );
  });
  afterAll(() => bed.stop());

  const measured = async <T>(request: () => Promise<T>): Promise<T> => {
    touched.calls = 0;
    touched.items = 0;
    return request();
  };

  /** `HISTORY_SIZE` executions and dispatch markers under a workflow, written as the worker would. */
  async function seedHistory(workflowId: string) {
    const { PK } = workflowKey(workflowId);
    const started = Date.parse('2026-11-01T00:00:00.000Z');
    const items = Array.from({ length: HISTORY_SIZE }, (_, index) => {
      const at = new Date(started + index * 60_000).toISOString();
      return index % 2 === 0
        ? {
            PK,
            SK: `EXECUTION#${at}#${index}`,
            entity: 'Execution',
            workflowId,
            outcome: 'success',
            expiresAt: 1,
          }
        : { PK, SK: `DISPATCH#${index}`, entity: 'DispatchDone', expiresAt: 1 };
    });
    const batches = Array.from({ length: items.length / 25 }, (_, batch) =>
      items.slice(batch * 25, batch * 25 + 25),
    );
    const writers = Array.from({ length: 8 }, async () => {
      for (let batch = batches.pop(); batch; batch = batches.pop()) {
        let requests = batch.map((Item) => ({ PutRequest: { Item } }));
        while (requests.length > 0) {
          const { UnprocessedItems } = await bed.deps.table.doc.send(
            new BatchWriteCommand({ RequestItems: { [bed.deps.table.name]: requests } }),
          );
          requests = (UnprocessedItems?.[bed.deps.table.name] ?? []) as typeof requests;
        }
      }
    });
    await Promise.all(writers);
  }

  const createWorkflow = async (lawyerEmail: string) => {
    const { statusCode, body } = await callRoute<Workflow>(bed.deps, 'createWorkflow', {
      token: admin,
      body: workflowFields(lawyerEmail),
    });
    expect(statusCode).toBe(201);
    return body;
  };

  const workflowStatus = async (id: string) =>
    (await callRoute(bed.deps, 'getWorkflow', { token: admin, params: { id } })).statusCode;

  it('deletes a workflow without reading its history, and it is gone from every screen at once', async () => {
    const lawyer = await createSignedInLawyer(bed.deps, admin);
    const workflow = await createWorkflow(lawyer.email);
    await seedHistory(workflow.id);

    const reply = await measured(() =>
      callRoute(bed.deps, 'deleteWorkflow', { token: admin, params: { id: workflow.id } }),
    );

    expect(reply).toMatchObject({ statusCode: 200, body: { success: true } });
    expect(touched.items).toBeLessThan(MOST_ITEMS_TOUCHED);
    expect(touched.calls).toBeLessThan(20);
    expect(await workflowStatus(workflow.id)).toBe(404);
    const own = await callRoute<WorkflowList>(bed.deps, 'listWorkflows', { token: lawyer.token });
    expect(own.body.workflows.map(({ id }) => id)).not.toContain(workflow.id);
    const history = await callRoute(bed.deps, 'workflowExecutions', {
      token: admin,
      params: { id: workflow.id },
    });
    expect(history.statusCode).toBe(404);
  });

  it('deletes a lawyer whose workflow has a large history without reading it', async () => {
    const lawyer = await createSignedInLawyer(bed.deps, admin);
    const workflow = await createWorkflow(lawyer.email);
    await seedHistory(workflow.id);

    const reply = await measured(() =>
      callRoute(bed.deps, 'deleteLawyer', { token: admin, params: { id: lawyer.lawyer.id } }),
    );

    expect(reply).toMatchObject({ statusCode: 200, body: { success: true } });
    expect(touched.items).toBeLessThan(MOST_ITEMS_TOUCHED);
    expect(
      (await callRoute(bed.deps, 'getLawyer', { token: admin, params: { id: lawyer.lawyer.id } })).statusCode,
    ).toBe(404);
    expect(await workflowStatus(workflow.id)).toBe(404);
  });

  it('purges a cancelled firm whose workflow has a large history without reading it', async () => {
    const firm = await buyLicense(bed);
    const saved = await callRoute<LawyerSaveReply>(bed.deps, 'saveLawyer', {
      token: admin,
      body: lawyerFields({ email: firm.email, licenseKey: firm.licenseKey }),
    });
    expect(saved.statusCode).toBe(201);
    const workflow = await createWorkflow(firm.email);
    await seedHistory(workflow.id);
    expect(
      (await callRoute(bed.deps, 'cancelSubscription', { token: firm.token, body: {} })).statusCode,
    ).toBe(200);
    // Cancelling stops the renewal; the 30 days start when the paid month ends.
    await endOfPaidPeriod(bed, firm);
    bed.app.clock.advance(30 * DAY_MS);
    admin = (await issueAndSignIn(bed.deps, 'admin')).token;

    const run = await measured(() => createDataRetentionHandler(bed.deps)({}));

    expect(run).toMatchObject({ purged: 1, failed: 0 });
    expect(touched.items).toBeLessThan(MOST_ITEMS_TOUCHED);
    expect(
      (await callRoute(bed.deps, 'getLawyer', { token: admin, params: { id: saved.body.lawyer.id } }))
        .statusCode,
    ).toBe(404);
    expect(await workflowStatus(workflow.id)).toBe(404);
  });
});
