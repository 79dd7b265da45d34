import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { migrateDirectory } from '../../../functions/migrations/directory-counts-and-search';
import type {
  DirectoryCounts,
  FolderList,
  LawyerList,
  WorkflowList,
} from '../../../shared/schemas/directory';
import type { Folder } from '../../../shared/schemas/folder';
import { createTestApp, disposeTestApp, type TestApp } from '../../support/app';
import { callRoute, createSignedInLawyer, issueAndSignIn, workflowFields } from '../../support/directory';
import { scanTable } from '../../support/records';

/**
 * A table written before the searches and counters: its items without search text or entries, no
 * counter. The migration gives them both, and then the searches find them and the counts are right.
 */
describe('the directory migration', () => {
  let app: TestApp;
  let admin: string;
  let owner: Awaited<ReturnType<typeof createSignedInLawyer>>;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
    owner = await createSignedInLawyer(app, admin, { lastName: 'Lefèvre' });
    const { body: folder } = await callRoute<Folder>(app, 'createFolder', {
      token: admin,
      body: { name: 'Succession Müller' },
    });
    for (const name of ['Équipe Dupont', 'Client 777']) {
      app.clock.advance(1_000);
      await callRoute(app, 'createWorkflow', {
        token: admin,
        body: workflowFields(owner.email, { name, folderId: folder.id }),
      });
    }
    // As the table was before: no search text, no entries, no counters.
    for (const item of await scanTable(app.table)) {
      const key = { PK: item.PK, SK: item.SK };
      if (String(item.PK).startsWith('UNIQUE#LAWYER_LICENSE#')) {
        await app.table.doc.send(
          new UpdateCommand({ TableName: app.table.name, Key: key, UpdateExpression: 'REMOVE email' }),
        );
      } else if (String(item.SK).startsWith('SEARCH#') || String(item.PK).startsWith('COUNTS#')) {
        await app.table.doc.send(new DeleteCommand({ TableName: app.table.name, Key: key }));
      } else if ('search' in item || 'count_total' in item) {
        await app.table.doc.send(
          new UpdateCommand({
            TableName: app.table.name,
            Key: key,
            UpdateExpression: 'REMOVE #search, count_total, count_active, count_scheduled',
            ExpressionAttributeNames: { '#search': 'search' },
          }),
        );
      }
    }
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  it('indexes every item and recounts every counter, once', async () => {
    const first = await migrateDirectory(app.table);
    const again = await migrateDirectory(app.table);

    expect(first).toEqual({ workflows: 2, lawyers: 1, folders: 1, indexed: 4, claims: 1 });
    expect(again).toEqual({ ...first, indexed: 0, claims: 0 });
    const claims = (await scanTable(app.table)).filter((item) =>
      String(item.PK).startsWith('UNIQUE#LAWYER_LICENSE#'),
    );
    expect(claims.map((claim) => claim.email)).toEqual([owner.email]);
    const counts = (await callRoute<DirectoryCounts>(app, 'directoryCounts', { token: admin })).body;
    expect(counts).toMatchObject({
      workflows: { total: 2, active: 2, scheduled: 0 },
      lawyers: 1,
      folders: 1,
    });
    const search = async <T>(name: 'listWorkflows' | 'listLawyers' | 'listFolders', q: string) =>
      (await callRoute<T>(app, name, { token: admin, query: { q } })).body;
    expect(
      (await search<WorkflowList>('listWorkflows', 'equipe')).workflows.map((item) => item.name),
    ).toEqual(['Équipe Dupont']);
    expect((await search<LawyerList>('listLawyers', 'lefevre')).lawyers).toHaveLength(1);
    const folders = (await search<FolderList>('listFolders', 'muller')).folders;
    expect(folders.map((item) => item.counts)).toEqual([{ total: 2, active: 2, scheduled: 0 }]);
  });
});
