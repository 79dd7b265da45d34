import { randomUUID } from 'node:crypto';

import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FolderRepository } from '../../../../functions/data/directory/folders';
import { scheduleKey, workflowKey } from '../../../../functions/data/directory/keys';
import { WorkflowRepository } from '../../../../functions/data/directory/workflows';
import { WorkflowRunRepository } from '../../../../functions/data/scheduling/workflow-runs';
import type { Table } from '../../../../functions/data/table/table';
import { isConditionFailure } from '../../../../functions/data/table/table-errors';
import { WorkflowNotFoundError } from '../../../../functions/domain/directory/ports';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { folderRecord, minutesAfterOrigin, uniqueEmail, workflowRecord } from '../../../support/records';

/**
 * A view of the table whose reads (GetItem, BatchGetItem) wait until `readers` of them have completed, so that
 * concurrent read-then-write operations are sure to have all read before any of them writes.
 */
function tableWhereReadsMeet(table: Table, readers: number): Table {
  let completed = 0;
  let release: () => void = () => {};
  const allRead = new Promise<void>((resolve) => {
    release = resolve;
  });
  const send = async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
    const output = await table.doc.send(command as never);
    if (command instanceof GetCommand || command instanceof BatchGetCommand) {
      completed += 1;
      if (completed >= readers) release();
      await allRead;
    }
    return output;
  };
  return { name: table.name, doc: { send } as unknown as DynamoDBDocumentClient };
}

describe('WorkflowRepository', () => {
  let app: TestApp;
  let workflows: WorkflowRepository;

  const idsOf = (records: { id: string }[]) => records.map((record) => record.id);

  /** A folder that exists: a workflow is filed only in one. */
  const existingFolder = async () => {
    const folder = folderRecord();
    await new FolderRepository(app.table).create(folder);
    return folder.id;
  };

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    workflows = new WorkflowRepository(app.table);
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  describe('create and getById', () => {
    it('reads a created workflow back', async () => {
      // Arrange
      const workflow = workflowRecord({ cronEnabled: true, cronNextRun: minutesAfterOrigin(2) });

      // Act
      await workflows.create(workflow);

      // Assert
      expect(await workflows.getById(workflow.id)).toEqual(workflow);
    });

    it('refuses a second workflow with the same id', async () => {
      // Arrange
      const workflow = workflowRecord();
      await workflows.create(workflow);

      // Act
      const attempt = workflows.create({ ...workflow, name: 'Autre nom' });

      // Assert
      await expect(attempt).rejects.toSatisfy(isConditionFailure);
      expect(await workflows.getById(workflow.id)).toEqual(workflow);
    });

    it('returns null for an unknown id', async () => {
      expect(await workflows.getById('00000000-0000-4000-8000-000000000000')).toBeNull();
    });
  });

  describe('lists', () => {
    it('lists all workflows newest first', async () => {
      // Arrange
      const oldest = workflowRecord({ createdAt: minutesAfterOrigin(1) });
      const newest = workflowRecord({ createdAt: minutesAfterOrigin(3) });
      const middle = workflowRecord({ createdAt: minutesAfterOrigin(2) });
      for (const workflow of [oldest, newest, middle]) await workflows.create(workflow);
      const mine = new Set(idsOf([oldest, newest, middle]));

      // Act
      const listed = (await workflows.find({ limit: 100 })).items;

      // Assert
      expect(idsOf(listed).filter((id) => mine.has(id))).toEqual(idsOf([newest, middle, oldest]));
    });

    it("lists only one owner's workflows, newest first", async () => {
      // Arrange
      const owner = uniqueEmail('owner');
      const older = workflowRecord({ lawyerEmail: owner, createdAt: minutesAfterOrigin(1) });
      const newer = workflowRecord({ lawyerEmail: owner, createdAt: minutesAfterOrigin(2) });
      const someoneElses = workflowRecord({ createdAt: minutesAfterOrigin(3) });
      for (const workflow of [older, someoneElses, newer]) await workflows.create(workflow);

      // Act
      const listed = await workflows.listByOwner(owner);

      // Assert
      expect(listed).toEqual([newer, older]);
    });

    it("lists only one folder's workflows, newest first", async () => {
      // Arrange
      const folderId = await existingFolder();
      const older = workflowRecord({ folderId, createdAt: minutesAfterOrigin(1) });
      const newer = workflowRecord({ folderId, createdAt: minutesAfterOrigin(2) });
      const elsewhere = workflowRecord({ folderId: await existingFolder() });
      const nowhere = workflowRecord();
      for (const workflow of [older, elsewhere, newer, nowhere]) await workflows.create(workflow);

      // Act
      const listed = await workflows.listByFolder(folderId);

      // Assert
      expect(listed).toEqual([newer, older]);
    });
  });

  describe('update', () => {
    it('applies the changes and returns the workflow as it now is', async () => {
      // Arrange
      const workflow = workflowRecord();
      await workflows.create(workflow);
      const changes = { name: 'Relance dossier', type: 'client_reminder' as const, cronInterval: 1 };

      // Act
      const updated = await workflows.update(workflow.id, changes, minutesAfterOrigin(10));

      // Assert
      const expected = { ...workflow, ...changes, updatedAt: minutesAfterOrigin(10) };
      expect(updated).toEqual(expected);
      expect(await workflows.getById(workflow.id)).toEqual(expected);
    });

    it("moves the workflow to its new owner's list", async () => {
      // Arrange
      const workflow = workflowRecord();
      await workflows.create(workflow);
      const newOwner = uniqueEmail('new-owner');

      // Act
      await workflows.update(workflow.id, { lawyerEmail: newOwner }, minutesAfterOrigin(10));

      // Assert
      expect(await workflows.listByOwner(workflow.lawyerEmail)).toEqual([]);
      expect(idsOf(await workflows.listByOwner(newOwner))).toEqual([workflow.id]);
    });

    it("moves the workflow into and out of a folder's list", async () => {
      // Arrange
      const workflow = workflowRecord();
      await workflows.create(workflow);
      const folderId = await existingFolder();

      // Act
      await workflows.update(workflow.id, { folderId }, minutesAfterOrigin(10));
      const whileFiled = await workflows.listByFolder(folderId);
      await workflows.update(workflow.id, { folderId: null }, minutesAfterOrigin(11));

      // Assert
      expect(idsOf(whileFiled)).toEqual([workflow.id]);
      expect(await workflows.listByFolder(folderId)).toEqual([]);
      expect(await workflows.getById(workflow.id)).toMatchObject({ folderId: null });
    });

    it('keeps the schedule state it does not own, such as the manual-run lock, through an edit of both items', async () => {
      // Arrange: a workflow someone just ran by hand (the lock is written by the manual run).
      const workflow = workflowRecord({ cronEnabled: true, cronLastRun: minutesAfterOrigin(3) });
      await workflows.create(workflow);
      const at = new Date(minutesAfterOrigin(9));
      expect(await new WorkflowRunRepository(app.table).lockManualRun(workflow.id, at, at)).toBe(true);

      // Act: the name is copied on the schedule item, so this edit writes both items.
      await workflows.update(
        workflow.id,
        { name: 'Relance renommée', description: 'Relance des clients sans réponse' },
        minutesAfterOrigin(10),
      );

      // Assert
      const read = async (Key: Record<string, string>) =>
        (await app.table.doc.send(new GetCommand({ TableName: app.table.name, Key, ConsistentRead: true })))
          .Item;
      expect(await read(scheduleKey(workflow.id))).toMatchObject({
        manualRunAt: minutesAfterOrigin(9),
        cronLastRun: minutesAfterOrigin(3),
        name: 'Relance renommée',
        entity: 'Schedule',
      });
      expect(await read(workflowKey(workflow.id))).toMatchObject({
        name: 'Relance renommée',
        description: 'Relance des clients sans réponse',
        entity: 'Workflow',
      });
    });

    it('takes the workflow into the due index when scheduling is turned on, and out when off', async () => {
      // Arrange
      const workflow = workflowRecord({ active: true, cronEnabled: false });
      await workflows.create(workflow);
      const read = async (Key: Record<string, string>) =>
        (await app.table.doc.send(new GetCommand({ TableName: app.table.name, Key }))).Item;

      // Act
      await workflows.update(workflow.id, { cronEnabled: true }, minutesAfterOrigin(10));
      const scheduled = await read(scheduleKey(workflow.id));
      await workflows.update(workflow.id, { cronEnabled: false }, minutesAfterOrigin(11));
      const unscheduled = await read(scheduleKey(workflow.id));

      // Assert: the due keys are on the schedule item only, never on the workflow item.
      expect(scheduled?.DuePK).toMatch(/^DUE#/);
      expect(unscheduled).not.toHaveProperty('DuePK');
      expect(unscheduled).not.toHaveProperty('DueSK');
      expect(await read(workflowKey(workflow.id))).not.toHaveProperty('DuePK');
    });

    it('refuses an unknown workflow without creating it', async () => {
      // Arrange
      const workflow = workflowRecord();

      // Act
      const attempt = workflows.update(workflow.id, { name: 'Fantôme' }, minutesAfterOrigin(10));

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(WorkflowNotFoundError);
      expect(await workflows.getById(workflow.id)).toBeNull();
    });
  });

  describe('toggle', () => {
    it.each(['active', 'cronEnabled'] as const)('flips %s and returns the new record', async (flag) => {
      // Arrange
      const workflow = workflowRecord({ active: true, cronEnabled: false });
      await workflows.create(workflow);

      // Act
      const toggled = await workflows.toggle(workflow.id, flag, minutesAfterOrigin(10));

      // Assert
      // Scheduled without a run yet: due from the switch.
      const firstDue = flag === 'cronEnabled' ? { cronNextRun: minutesAfterOrigin(10) } : {};
      const expected = {
        ...workflow,
        [flag]: !workflow[flag],
        updatedAt: minutesAfterOrigin(10),
        ...firstDue,
      };
      expect(toggled).toEqual(expected);
      expect(await workflows.getById(workflow.id)).toEqual(expected);
    });

    it('flips back on a second toggle', async () => {
      // Arrange
      const workflow = workflowRecord({ active: true });
      await workflows.create(workflow);
      await workflows.toggle(workflow.id, 'active', minutesAfterOrigin(10));

      // Act
      const toggled = await workflows.toggle(workflow.id, 'active', minutesAfterOrigin(11));

      // Assert
      expect(toggled.active).toBe(true);
    });

    it.each(['active', 'cronEnabled'] as const)(
      'applies exactly one of two concurrent toggles of %s',
      async (flag) => {
        // Arrange
        const workflow = workflowRecord({ active: true, cronEnabled: false });
        await workflows.create(workflow);
        const racing = new WorkflowRepository(tableWhereReadsMeet(app.table, 2));

        // Act
        const outcomes = await Promise.allSettled([
          racing.toggle(workflow.id, flag, minutesAfterOrigin(10)),
          racing.toggle(workflow.id, flag, minutesAfterOrigin(10)),
        ]);

        // Assert
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        const refusal = outcomes.find((outcome) => outcome.status === 'rejected');
        expect(refusal?.reason).toBeInstanceOf(WorkflowNotFoundError);
        expect(refusal?.reason).toMatchObject({ message: expect.stringContaining('modifiée entre-temps') });
        expect((await workflows.getById(workflow.id))?.[flag]).toBe(!workflow[flag]);
      },
    );

    it('refuses an unknown workflow', async () => {
      // Act
      const attempt = workflows.toggle(randomUUID(), 'active', minutesAfterOrigin(10));

      // Assert
      await expect(attempt).rejects.toBeInstanceOf(WorkflowNotFoundError);
    });
  });

  describe('detachFromFolder', () => {
    it("takes the folder's workflows out of it and leaves the others alone", async () => {
      // Arrange
      const folderId = await existingFolder();
      const otherFolderId = await existingFolder();
      const filed = [workflowRecord({ folderId }), workflowRecord({ folderId })];
      const elsewhere = workflowRecord({ folderId: otherFolderId });
      for (const workflow of [...filed, elsewhere]) await workflows.create(workflow);

      // Act
      const detached = await workflows.detachFromFolder(folderId, minutesAfterOrigin(10));

      // Assert
      expect(detached).toBe(2);
      expect(await workflows.listByFolder(folderId)).toEqual([]);
      for (const workflow of filed) {
        expect(await workflows.getById(workflow.id)).toEqual({
          ...workflow,
          folderId: null,
          updatedAt: minutesAfterOrigin(10),
        });
      }
      expect(await workflows.listByFolder(otherFolderId)).toEqual([elsewhere]);
    });
  });

  describe('delete', () => {
    it('removes the workflow item and its schedule item, its history left to the TTL', async () => {
      // Arrange
      const workflow = workflowRecord();
      const neighbour = workflowRecord({ lawyerEmail: workflow.lawyerEmail });
      await workflows.create(workflow);
      await workflows.create(neighbour);
      await app.table.doc.send(
        new PutCommand({
          TableName: app.table.name,
          Item: {
            PK: workflowKey(workflow.id).PK,
            SK: `EXECUTION#${minutesAfterOrigin(5)}`,
            entity: 'Execution',
            outcome: 'success',
          },
        }),
      );

      // Act
      await workflows.delete(workflow.id);

      // Assert
      const { Items } = await app.table.doc.send(
        new QueryCommand({
          TableName: app.table.name,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': workflowKey(workflow.id).PK },
        }),
      );
      expect(Items?.map((item) => item.entity)).toEqual(['Execution']);
      expect(await workflows.getById(workflow.id)).toBeNull();
      expect(await workflows.listByOwner(workflow.lawyerEmail)).toEqual([neighbour]);
    });
  });
});
