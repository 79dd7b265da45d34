import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { API_HANDLERS } from '../../../../functions/handlers';
import { IDEMPOTENCY_MESSAGES } from '../../../../shared/idempotency-messages';
import { ROUTES } from '../../../../shared/routes';
import type { AuditPage, LawyerSaveReply } from '../../../../shared/schemas/directory';
import type { Folder } from '../../../../shared/schemas/folder';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { apiEvent, createTestApp, disposeTestApp, invoke, type TestApp } from '../../../support/app';
import {
  adminWithLawyer,
  callRoute,
  issueAndSignIn,
  lawyerFields,
  workflowFields,
} from '../../../support/directory';
import { awsError, tableWithFaults } from '../../../support/faults';

/**
 * Creates sent again with the same Idempotency-Key, against DynamoDB Local; aws-sdk-client-mock
 * only injects the store's fault (a write that times out, before or after DynamoDB applied it).
 */
describe('creates with an Idempotency-Key (POST /api/workflows, POST /api/folders, PUT /api/lawyers)', () => {
  let app: TestApp;
  let admin: string;
  let lawyerEmail: string;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    ({ admin, lawyerEmail } = await adminWithLawyer(app));
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  let keys = 0;
  const newKey = () => `cle-de-test-${++keys}-${Date.now()}`;

  /** The audit entries of an action on a target, as the trail lists them. */
  const auditEntries = async (action: string, target: string) => {
    const { body } = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '100' } });
    return body.entries.filter((entry) => entry.action === action && entry.target === target);
  };
  const workflowsNamed = async (name: string) => {
    const { body } = await callRoute<{ workflows: Workflow[] }>(app, 'listWorkflows', {
      token: admin,
      query: { limit: '100' },
    });
    return body.workflows.filter((workflow) => workflow.name === name);
  };

  /** The workflows function over DynamoDB Local, its transactions answered by `transact`. */
  const workflowsWithFaultyStore = (transact: (input: TransactWriteCommandInput) => Promise<unknown>) =>
    API_HANDLERS.workflows({ ...app, table: tableWithFaults(app.table, { transactWrite: transact }) });
  const createWorkflowOn = (
    handler: ReturnType<typeof workflowsWithFaultyStore>,
    body: unknown,
    key: string,
  ) =>
    invoke<Workflow & { error?: string }>(
      handler,
      apiEvent('POST', '/api/workflows', {
        routePath: ROUTES.createWorkflow.path,
        token: admin,
        body,
        headers: { 'idempotency-key': key },
      }),
    );

  it('answers a retry with the first reply, and creates the workflow once with one audit entry', async () => {
    const key = newKey();
    const fields = workflowFields(lawyerEmail, { name: 'Relances une fois' });

    const first = await callRoute<Workflow>(app, 'createWorkflow', {
      token: admin,
      body: fields,
      headers: { 'idempotency-key': key },
    });
    const retry = await callRoute<Workflow>(app, 'createWorkflow', {
      token: admin,
      body: fields,
      headers: { 'idempotency-key': key },
    });

    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.result.headers?.['idempotent-replayed']).toBe('true');
    expect(await workflowsNamed('Relances une fois')).toHaveLength(1);
    expect(await auditEntries('workflow.create', `workflow:${first.body.id}`)).toHaveLength(1);
  });

  it('answers a create the store applied but whose answer was lost with its kept reply, and so does the retry', async () => {
    // Arrange: the first transaction reaches DynamoDB Local, then the call times out (a 5xx).
    const key = newKey();
    const fields = workflowFields(lawyerEmail, { name: 'Réponse perdue' });
    let lost = true;
    const handler = workflowsWithFaultyStore(async (input) => {
      const applied = await app.table.doc.send(new TransactWriteCommand(input));
      if (!lost) return applied;
      lost = false;
      throw awsError('TimeoutError');
    });

    // Act
    const first = await createWorkflowOn(handler, fields, key);
    const retry = await createWorkflowOn(handler, fields, key);

    // Assert: the create that was saved answers as saved (its kept reply, not a 5xx), the retry
    // gets the same, and nothing is doubled.
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toEqual(first.body);
    const saved = await workflowsNamed('Réponse perdue');
    expect(saved.map((workflow) => workflow.id)).toEqual([retry.body.id]);
    expect(await auditEntries('workflow.create', `workflow:${retry.body.id}`)).toHaveLength(1);
  });

  it('saves nothing, not even an audit entry, when the create fails: the retry creates it', async () => {
    const key = newKey();
    const fields = workflowFields(lawyerEmail, { name: 'Jamais écrite' });
    let failing = true;
    const handler = workflowsWithFaultyStore(async (input) => {
      if (failing) {
        failing = false;
        throw awsError('ProvisionedThroughputExceededException');
      }
      return app.table.doc.send(new TransactWriteCommand(input));
    });

    const first = await createWorkflowOn(handler, fields, key);
    expect(first.statusCode).toBeGreaterThanOrEqual(500);
    expect(await workflowsNamed('Jamais écrite')).toEqual([]);
    const { body: trail } = await callRoute<AuditPage>(app, 'listAudit', {
      token: admin,
      query: { limit: '100' },
    });
    expect(trail.entries.filter((entry) => entry.targetLabel === 'Jamais écrite')).toEqual([]);

    const retry = await createWorkflowOn(handler, fields, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.result.headers?.['idempotent-replayed']).toBeUndefined();
    expect((await workflowsNamed('Jamais écrite')).map((workflow) => workflow.id)).toEqual([retry.body.id]);
    expect(await auditEntries('workflow.create', `workflow:${retry.body.id}`)).toHaveLength(1);
  });

  it('creates one folder when the same create arrives twice at once', async () => {
    const key = newKey();
    const send = () =>
      callRoute<Folder>(app, 'createFolder', {
        token: admin,
        body: { name: 'Dossier Lefèvre' },
        headers: { 'idempotency-key': key },
      });

    const [one, two] = await Promise.all([send(), send()]);

    expect([one.statusCode, two.statusCode]).toEqual([201, 201]);
    expect(two.body.id).toBe(one.body.id);
    const { body } = await callRoute<{ folders: Folder[] }>(app, 'listFolders', {
      token: admin,
      query: { limit: '100' },
    });
    expect(body.folders.filter((folder) => folder.name === 'Dossier Lefèvre')).toHaveLength(1);
    expect(await auditEntries('folder.create', `folder:${one.body.id}`)).toHaveLength(1);
  });

  it('refuses the same key with another request, and a key it does not take, in French', async () => {
    const key = newKey();
    await callRoute(app, 'createFolder', {
      token: admin,
      body: { name: 'Premier' },
      headers: { 'idempotency-key': key },
    });

    const reused = await callRoute<{ error: string }>(app, 'createFolder', {
      token: admin,
      body: { name: 'Second' },
      headers: { 'idempotency-key': key },
    });
    const malformed = await callRoute<{ error: string }>(app, 'createFolder', {
      token: admin,
      body: { name: 'Troisième' },
      headers: { 'idempotency-key': 'court' },
    });

    expect(reused.statusCode).toBe(422);
    expect(reused.body.error).toBe(IDEMPOTENCY_MESSAGES.keyReused);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body.error).toContain('Idempotency-Key');
  });

  it('keeps one admin’s key apart from another’s', async () => {
    const key = newKey();
    const other = (await issueAndSignIn(app, 'admin', 'collaborateur@cabinet.fr')).token;
    const mine = await callRoute<Folder>(app, 'createFolder', {
      token: admin,
      body: { name: 'Même clé' },
      headers: { 'idempotency-key': key },
    });
    const theirs = await callRoute<Folder>(app, 'createFolder', {
      token: other,
      body: { name: 'Même clé' },
      headers: { 'idempotency-key': key },
    });

    expect(theirs.statusCode).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  /** The lawyers function over DynamoDB Local, its transactions answered by `transact`. */
  const saveLawyerOn = (
    transact: (input: TransactWriteCommandInput) => Promise<unknown>,
  ): ((body: unknown, key: string) => ReturnType<typeof invoke<LawyerSaveReply & { error?: string }>>) => {
    const handler = API_HANDLERS.lawyers({
      ...app,
      table: tableWithFaults(app.table, { transactWrite: transact }),
    });
    return (body, key) =>
      invoke<LawyerSaveReply & { error?: string }>(
        handler,
        apiEvent('PUT', '/api/lawyers', {
          routePath: ROUTES.saveLawyer.path,
          token: admin,
          body,
          headers: { 'idempotency-key': key },
        }),
      );
  };
  /** Every entry of the trail about the lawyer of that e-mail (its label names him by it). */
  const lawyerEntries = async (email: string) => {
    const { body } = await callRoute<AuditPage>(app, 'listAudit', { token: admin, query: { limit: '100' } });
    return body.entries.filter((entry) => entry.targetLabel?.includes(email)).map((entry) => entry.action);
  };

  it('answers a lost "Nouvel avocat" reply and its retry with the lawyer created once, not a 409', async () => {
    const key = newKey();
    const fields = { ...lawyerFields(), createOnly: true };
    let lost = true;
    const save = saveLawyerOn(async (input) => {
      const applied = await app.table.doc.send(new TransactWriteCommand(input));
      if (!lost) return applied;
      lost = false;
      throw awsError('TimeoutError');
    });

    const first = await save(fields, key);
    const retry = await save(fields, key);

    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.body.created).toBe(true);
    expect(retry.result.headers?.['idempotent-replayed']).toBe('true');
    expect(await lawyerEntries(fields.email)).toEqual(['lawyer.create']);
  });

  it('saves neither the lawyer nor his entry when his create fails: the retry creates him once', async () => {
    const key = newKey();
    const fields = { ...lawyerFields(), createOnly: true };
    let failing = true;
    const save = saveLawyerOn(async (input) => {
      if (failing) {
        failing = false;
        throw awsError('ProvisionedThroughputExceededException');
      }
      return app.table.doc.send(new TransactWriteCommand(input));
    });

    const first = await save(fields, key);
    expect(first.statusCode).toBeGreaterThanOrEqual(500);
    expect(await lawyerEntries(fields.email)).toEqual([]);
    const lookedUp = await callRoute(app, 'lookupLawyer', { token: admin, body: { email: fields.email } });
    expect(lookedUp.body).toMatchObject({ lawyer: null });

    const retry = await save(fields, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.result.headers?.['idempotent-replayed']).toBeUndefined();
    expect(await lawyerEntries(fields.email)).toEqual(['lawyer.create']);
  });

  it('refuses another lawyer under a key already used, with a 422 in French, and saves nothing', async () => {
    const key = newKey();
    const first = await callRoute<LawyerSaveReply>(app, 'saveLawyer', {
      token: admin,
      body: { ...lawyerFields(), createOnly: true },
      headers: { 'idempotency-key': key },
    });
    const other = { ...lawyerFields({ firstName: 'Inès' }), createOnly: true };

    const reused = await callRoute<{ error: string }>(app, 'saveLawyer', {
      token: admin,
      body: other,
      headers: { 'idempotency-key': key },
    });

    expect(first.statusCode).toBe(201);
    expect(reused.statusCode).toBe(422);
    expect(reused.body.error).toBe(IDEMPOTENCY_MESSAGES.keyReused);
    expect(await lawyerEntries(other.email)).toEqual([]);
  });

  it('answers an edit sent again under its key with its first reply (200), on the trail once', async () => {
    const key = newKey();
    const created = await callRoute<LawyerSaveReply>(app, 'saveLawyer', {
      token: admin,
      body: lawyerFields(),
    });
    const edit = {
      ...lawyerFields({ email: created.body.lawyer.email }),
      officeName: 'Cabinet Martin & associés',
    };

    const first = await callRoute<LawyerSaveReply>(app, 'saveLawyer', {
      token: admin,
      body: edit,
      headers: { 'idempotency-key': key },
    });
    const retry = await callRoute<LawyerSaveReply>(app, 'saveLawyer', {
      token: admin,
      body: edit,
      headers: { 'idempotency-key': key },
    });

    expect([first.statusCode, retry.statusCode]).toEqual([200, 200]);
    expect(retry.body).toEqual(first.body);
    expect(retry.body.lawyer.officeName).toBe('Cabinet Martin & associés');
    expect((await lawyerEntries(edit.email)).sort()).toEqual(['lawyer.create', 'lawyer.update']);
  });
});
