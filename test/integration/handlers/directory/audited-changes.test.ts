import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pauseRecordUpdate } from '../../../../functions/data/directory/pause-record';
import { API_HANDLERS } from '../../../../functions/handlers';
import type { HandlerName } from '../../../../functions/needs';
import { ROUTES, type RouteName, routePath } from '../../../../shared/routes';
import type { AuditPage } from '../../../../shared/schemas/directory';
import type { Folder } from '../../../../shared/schemas/folder';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { apiEvent, createTestApp, disposeTestApp, invoke, type TestApp } from '../../../support/app';
import { adminWithLawyer, callRoute, workflowFields } from '../../../support/directory';
import { awsError, tableWithFaults } from '../../../support/faults';

/**
 * Each audited change writes its audit entry in its own transaction. Against DynamoDB Local, a
 * store that refuses every write made on its own (aws-sdk-client-mock injects the refusal) leaves
 * each change whole with its entry: an entry written after the change would fail there, the
 * change saved without it.
 */
describe('audited changes, each with its audit entry in one transaction', () => {
  let app: TestApp;
  let admin: string;
  let lawyerEmail: string;
  const handlers = new Map<HandlerName, ReturnType<(typeof API_HANDLERS)['workflows']>>();

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    ({ admin, lawyerEmail } = await adminWithLawyer(app));
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  /** Calls a route on its function over a store that refuses lone puts. */
  const callOnStrictStore = <T>(
    name: RouteName,
    options: { body?: unknown; params?: Record<string, string> },
  ) => {
    const route = ROUTES[name];
    const handlerName = route.handler as HandlerName;
    let handler = handlers.get(handlerName);
    if (!handler) {
      const table = tableWithFaults(app.table, {
        put: () => Promise.reject(awsError('InternalServerError')),
      });
      handler = API_HANDLERS[handlerName]({ ...app, table });
      handlers.set(handlerName, handler);
    }
    const params = options.params ?? {};
    return invoke<T>(
      handler,
      apiEvent(route.method, routePath(route, params), {
        routePath: route.path,
        token: admin,
        body: options.body,
        ...(options.params ? { pathParameters: params } : {}),
      }),
    );
  };
  /** The actions on the trail about a target, in alphabetical order (they share one instant). */
  const entriesOf = async (target: string) => {
    const { body } = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '100' } });
    return body.entries
      .filter((entry) => entry.target === target)
      .map((entry) => entry.action)
      .sort();
  };

  it('saves a workflow’s create, edit, switch and delete each with its entry', async () => {
    const created = await callOnStrictStore<Workflow>('createWorkflow', {
      body: workflowFields(lawyerEmail),
    });
    expect(created.statusCode).toBe(201);
    const id = created.body.id;
    const edited = await callOnStrictStore<Workflow>('updateWorkflow', {
      params: { id },
      body: { name: 'Relances modifiées' },
    });
    const switched = await callOnStrictStore<Workflow>('toggleWorkflowActive', { params: { id } });
    const deleted = await callOnStrictStore('deleteWorkflow', { params: { id } });

    expect([edited.statusCode, switched.statusCode, deleted.statusCode]).toEqual([200, 200, 200]);
    expect(await entriesOf(`workflow:${id}`)).toEqual(
      ['workflow.create', 'workflow.update', 'workflow.deactivate', 'workflow.delete'].sort(),
    );
  });

  it('saves a folder’s create, edit and delete each with its entry', async () => {
    const created = await callOnStrictStore<Folder>('createFolder', { body: { name: 'Succession Morel' } });
    expect(created.statusCode).toBe(201);
    const id = created.body.id;
    const edited = await callOnStrictStore('updateFolder', { params: { id }, body: { name: 'Morel SA' } });
    const deleted = await callOnStrictStore('deleteFolder', { params: { id } });

    expect([edited.statusCode, deleted.statusCode]).toEqual([200, 200]);
    expect(await entriesOf(`folder:${id}`)).toEqual(['folder.create', 'folder.delete', 'folder.update']);
  });

  it('saves the health settings with their entry', async () => {
    const saved = await callOnStrictStore('updateHealthSettings', {
      body: { pauseAfterFailures: 4, alertEmail: 'veille@cabinet.fr', dailyDigest: true },
    });

    expect(saved.statusCode).toBe(200);
    const { body } = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '100' } });
    expect(body.entries.filter((entry) => entry.action === 'health.settings.update')).toHaveLength(1);
  });

  it('saves an admin’s ‘Reprendre’ with its entry', async () => {
    // Arrange: a scheduled workflow the automatic pause stopped (scheduling off, the pause noted).
    const { body: workflow } = await callRoute<Workflow>(app, 'createWorkflow', {
      token: admin,
      body: workflowFields(lawyerEmail, { name: 'Relances suspendues' }),
    });
    await callRoute(app, 'toggleWorkflowScheduling', { token: admin, params: { id: workflow.id } });
    await callRoute(app, 'toggleWorkflowScheduling', { token: admin, params: { id: workflow.id } });
    await app.table.doc.send(
      new UpdateCommand(
        pauseRecordUpdate(app.table, {
          workflowId: workflow.id,
          at: app.clock.now().toISOString(),
          reason: '5 échecs consécutifs',
        }),
      ),
    );

    // Act
    const resumed = await callOnStrictStore<Workflow>('resumeWorkflow', { params: { id: workflow.id } });

    // Assert
    expect(resumed.statusCode).toBe(200);
    expect(resumed.body.cronSettings.enabled).toBe(true);
    expect(await entriesOf(`workflow:${workflow.id}`)).toContain('workflow.resume');
  });
});
