import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { workflowKey } from '../../../../functions/data/directory/keys';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { TABLE_DEFINITION } from '../../../../functions/data/table/table-definition';
import { issueLicense } from '../../../../functions/domain/identity/licenses';
import { createLicenseKeyVault } from '../../../../functions/security/license-key-vault';
import { MESSAGES } from '../../../../shared/messages';
import type { AuditEntry } from '../../../../shared/schemas/audit';
import type { Folder } from '../../../../shared/schemas/folder';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import {
  callRoute,
  createSignedInLawyer,
  issueAndSignIn,
  signIn,
  workflowFields,
} from '../../../support/directory';

/** Every item of the table and of each index. Test code only: the product never scans. */
async function everyItem(app: TestApp) {
  const sources = [undefined, ...TABLE_DEFINITION.globalSecondaryIndexes.map((index) => index.indexName)];
  const items: { source: string; item: Record<string, unknown> }[] = [];
  for (const indexName of sources) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await app.table.doc.send(
        new ScanCommand({ TableName: app.table.name, IndexName: indexName, ExclusiveStartKey: startKey }),
      );
      for (const item of page.Items ?? []) items.push({ source: indexName ?? 'table', item });
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return items;
}

describe('DELETE /api/lawyers/{id}', () => {
  let app: TestApp;
  let admin: string;
  let lawyer: Awaited<ReturnType<typeof createSignedInLawyer>>;
  let colleague: Awaited<ReturnType<typeof createSignedInLawyer>>;
  let folder: Folder;
  let workflows: Workflow[];
  let colleagueWorkflow: Workflow;
  let secondLicenseHash: string;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
    folder = (
      await callRoute<Folder>(app, 'createFolder', { token: admin, body: { name: 'Succession Dupont' } })
    ).body;
    lawyer = await createSignedInLawyer(app, admin, {
      googlePassword: 'mot-de-passe',
      googleCredentials: { clientId: 'id', clientSecret: 'secret', redirectUri: '' },
    });
    colleague = await createSignedInLawyer(app, admin);
    // A second licence bought with his e-mail: his too.
    secondLicenseHash = (
      await issueLicense(
        new LicenseRepository(app.table),
        createLicenseKeyVault(app.keys),
        { licenseType: 'lawyer', userEmail: lawyer.email },
        app.clock.now().toISOString(),
      )
    ).record.keyHash;
    workflows = [];
    for (const type of ['client_management', 'client_reminder']) {
      const { body } = await callRoute<Workflow>(app, 'createWorkflow', {
        token: admin,
        body: workflowFields(lawyer.email, { type, folderId: folder.id }),
      });
      workflows.push(body);
      // Execution history under the workflow's partition, as the worker records it.
      await app.table.doc.send(
        new PutCommand({
          TableName: app.table.name,
          Item: {
            PK: workflowKey(body.id).PK,
            SK: `EXECUTION#${app.clock.now().toISOString()}#1`,
            entity: 'Execution',
            workflowId: body.id,
            outcome: 'success',
            expiresAt: Math.floor(app.clock.now().getTime() / 1000) + 30 * 86_400,
          },
        }),
      );
    }
    colleagueWorkflow = (
      await callRoute<Workflow>(app, 'createWorkflow', {
        token: admin,
        body: workflowFields(colleague.email, { folderId: folder.id }),
      })
    ).body;
    await callRoute(app, 'toggleWorkflowScheduling', {
      token: lawyer.token,
      params: { id: workflows[0]!.id },
    });
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  it('removes the lawyer and everything that is his, leaving nothing that names him in any index', async () => {
    const before = await everyItem(app);
    const mentions = (needle: string) =>
      before.filter(({ item }) => JSON.stringify(item).includes(needle)).map(({ item }) => item.entity);
    // The fixture really spreads him over the table, so that the check below means something.
    expect(mentions(lawyer.email)).toEqual(
      expect.arrayContaining(['Lawyer', 'LawyerClaim', 'License', 'Workflow']),
    );
    expect(mentions(lawyer.keyHash)).toEqual(expect.arrayContaining(['LawyerClaim', 'License', 'Session']));

    const { statusCode, body } = await callRoute(app, 'deleteLawyer', {
      token: admin,
      params: { id: lawyer.lawyer.id },
    });

    expect(statusCode).toBe(200);
    expect(body).toEqual({ success: true });
    const after = await everyItem(app);
    const workflowIds = workflows.map((workflow) => workflow.id);
    for (const { source, item } of after) {
      const text = JSON.stringify(item);
      // The audit trail keeps who he was (his id, name and e-mail in the entry's label) so that
      // the admins can still read what happened to whom; no key hash, no other item.
      if (item.entity !== 'AuditEntry')
        expect(text, `${source} ${item.PK} ${item.SK}`).not.toContain(lawyer.email);
      expect(text, `${source} ${item.PK} ${item.SK}`).not.toContain(lawyer.keyHash);
      expect(text, `${source} ${item.PK} ${item.SK}`).not.toContain(secondLicenseHash);
      // The history of his deleted workflows is left to its TTL: it names only the opaque workflow
      // id, which no screen, index or call leads to any more, and it expires.
      if (item.entity === 'Execution') {
        expect(typeof item.expiresAt, `${source} ${item.PK} ${item.SK}`).toBe('number');
        continue;
      }
      if (item.entity !== 'AuditEntry') {
        expect(text, `${source} ${item.PK} ${item.SK}`).not.toContain(lawyer.lawyer.id);
        for (const id of workflowIds) expect(text, `${source} ${item.PK} ${item.SK}`).not.toContain(id);
      }
    }
    expect(app.lawyerSecrets.entries.has(lawyer.lawyer.id)).toBe(false);
  });

  it('records the deletion on the audit trail with his name and e-mail, readable after he is gone', async () => {
    const { body } = await callRoute<{ entries: AuditEntry[] }>(app, 'listAudit', { token: admin });

    expect(body.entries).toContainEqual(
      expect.objectContaining({
        action: 'lawyer.delete',
        target: `lawyer:${lawyer.lawyer.id}`,
        targetLabel: `${lawyer.lawyer.firstName} ${lawyer.lawyer.lastName} (${lawyer.email})`,
      }),
    );
  });

  it('leaves other lawyers, their workflows and the folders alone', async () => {
    const kept = await callRoute(app, 'getLawyer', { token: admin, params: { id: colleague.lawyer.id } });
    const keptWorkflow = await callRoute<Workflow>(app, 'getWorkflow', {
      token: admin,
      params: { id: colleagueWorkflow.id },
    });
    const folders = await callRoute<{ folders: Folder[] }>(app, 'listFolders', { token: admin });

    expect(kept.statusCode).toBe(200);
    expect(keptWorkflow.body.folderId).toBe(folder.id);
    expect(folders.body.folders.map((each) => each.id)).toContain(folder.id);
    expect((await signIn(app, colleague.licenseKey)).valid).toBe(true);
  });

  it('ends his sessions and no longer lets his key sign in', async () => {
    const withOldToken = await callRoute(app, 'getProfile', { token: lawyer.token });
    const again = await signIn(app, lawyer.licenseKey);

    expect(withOldToken.statusCode).toBe(401);
    expect(again).toEqual({ valid: false, error: MESSAGES.login.invalidKey });
  });

  it('answers 404 for a lawyer already deleted', async () => {
    const { statusCode, body } = await callRoute(app, 'deleteLawyer', {
      token: admin,
      params: { id: lawyer.lawyer.id },
    });

    expect(statusCode).toBe(404);
    expect(body).toEqual({ error: MESSAGES.directory.lawyerNotFound });
  });
});
