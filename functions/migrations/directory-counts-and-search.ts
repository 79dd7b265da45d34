import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WorkflowType } from '../../shared/constants';
import {
  counterAttribute,
  FOLDER_COUNTER_KEY,
  FOLDERS_PARTITION,
  folderKey,
  LAWYER_COUNTER_KEY,
  LAWYERS_PARTITION,
  lawyerKey,
  ownerCountersKey,
  type SearchedList,
  WORKFLOW_COUNTER_SHARDS,
  WORKFLOWS_PARTITION,
  workflowCountersKey,
  workflowKey,
} from '../data/directory/keys';
import { searchEntryWrites } from '../data/directory/search-index';
import { lawyerLicenseClaimKey } from '../data/identity/keys';
import { queryPages } from '../data/table/query-all';
import type { Table } from '../data/table/table';
import { applied } from '../data/table/table-errors';
import { searchText } from '../domain/directory/search-terms';
import { recount } from '../domain/directory/workflow-counts';

/** What a run did. */
export interface DirectoryMigrationRun {
  readonly workflows: number;
  readonly lawyers: number;
  readonly folders: number;
  /** Items whose search text was written now (the others had it already). */
  readonly indexed: number;
  /** Licence claims given their profile's e-mail now (the others had it already). */
  readonly claims: number;
}

/** The items of a list, page after page through its GSI1 partitions (Query, never Scan). */
async function* listItems(table: Table, partitions: readonly string[]) {
  for (const partition of partitions) {
    for await (const page of queryPages(table, {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': partition },
    })) {
      yield* page.Items ?? [];
    }
  }
}

/**
 * Gives an item its search text and its search entries when it lacks them (items written before
 * the searches existed), conditional on the item as read: an item changed meanwhile got both from
 * that change.
 */
async function indexItem(
  table: Table,
  list: SearchedList,
  item: Record<string, unknown>,
  key: { PK: string; SK: string },
  texts: readonly (string | null | undefined)[],
): Promise<boolean> {
  const text = searchText(texts);
  if (item.search === text) return false;
  const entries = searchEntryWrites(table, list, null, {
    partition: key.PK,
    id: item.id as string,
    sortKey: `${item.createdAt as string}#${item.id as string}`,
    texts,
  });
  return applied(
    table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table.name,
              Key: key,
              UpdateExpression: 'SET #search = :search',
              ConditionExpression: 'updatedAt = :read',
              ExpressionAttributeNames: { '#search': 'search' },
              ExpressionAttributeValues: { ':search': text, ':read': item.updatedAt },
            },
          },
          ...entries,
        ],
      }),
    ),
  );
}

const counterItem = (counts: ReturnType<typeof recount>) => ({
  [counterAttribute('total')]: counts.total,
  [counterAttribute('active')]: counts.active,
  [counterAttribute('scheduled')]: counts.scheduled,
  [counterAttribute('running')]: counts.running,
  ...Object.fromEntries(
    Object.entries(counts.byType).map(([type, count]) => [counterAttribute(type), count]),
  ),
});

/**
 * Brings a table written before the directory's searches and counters to them (after the lists'
 * items are in their one partition: `migrateWorkflows`, `migrateAdminLists`): every workflow,
 * lawyer and folder gets its search text and entries, every counter is set to a recount, and each
 * lawyer's licence claim gets his e-mail.
 * Idempotent; the recount is exact when no admin changes the directory while it runs (run it
 * again otherwise: it recounts).
 */
export async function migrateDirectory(table: Table): Promise<DirectoryMigrationRun> {
  let indexed = 0;
  // An automation is searched by its lawyer's name too.
  const ownerNames = new Map<string, string[]>();
  for await (const item of listItems(table, [LAWYERS_PARTITION])) {
    if (item.entity === 'Lawyer')
      ownerNames.set(item.email as string, [item.firstName as string, item.lastName as string]);
  }
  const workflows: Parameters<typeof recount>[0][number][] = [];
  for await (const item of listItems(table, [WORKFLOWS_PARTITION])) {
    if (item.entity !== 'Workflow') continue;
    if (
      await indexItem(table, 'WORKFLOWS', item, workflowKey(item.id as string), [
        item.name as string,
        item.description as string,
        (item.category as string | null) ?? null,
        ...(Array.isArray(item.tags) ? (item.tags as string[]) : []),
        ...(ownerNames.get(item.lawyerEmail as string) ?? []),
      ])
    )
      indexed += 1;
    workflows.push({
      id: item.id as string,
      lawyerEmail: item.lawyerEmail as string,
      folderId: (item.folderId as string | null) ?? null,
      active: item.active === true,
      cronEnabled: item.cronEnabled === true,
      type: item.type as WorkflowType,
    });
  }
  const shards = new Map<string, typeof workflows>();
  for (let shard = 0; shard < WORKFLOW_COUNTER_SHARDS; shard++) shards.set(`COUNTS#WORKFLOWS#${shard}`, []);
  for (const workflow of workflows) shards.get(workflowCountersKey(workflow.id).PK)?.push(workflow);
  for (const [PK, items] of shards) {
    await table.doc.send(
      new PutCommand({ TableName: table.name, Item: { PK, SK: 'COUNTS', ...counterItem(recount(items)) } }),
    );
  }
  for (const email of new Set(workflows.map((workflow) => workflow.lawyerEmail))) {
    const counts = recount(workflows.filter((workflow) => workflow.lawyerEmail === email));
    await table.doc.send(
      new PutCommand({ TableName: table.name, Item: { ...ownerCountersKey(email), ...counterItem(counts) } }),
    );
  }

  let lawyers = 0;
  let claims = 0;
  for await (const item of listItems(table, [LAWYERS_PARTITION])) {
    if (item.entity !== 'Lawyer') continue;
    lawyers += 1;
    // The claim on his licence key carries his e-mail (read with every session of his): given it
    // where it lacks one; a profile changed since carried its own e-mail to the claim.
    if (typeof item.licenseKeyHash === 'string' && item.licenseKeyHash.length > 0) {
      const given = await applied(
        table.doc.send(
          new UpdateCommand({
            TableName: table.name,
            Key: lawyerLicenseClaimKey(item.licenseKeyHash),
            UpdateExpression: 'SET email = :email',
            ConditionExpression: 'lawyerId = :id AND attribute_not_exists(email)',
            ExpressionAttributeValues: { ':email': item.email, ':id': item.id },
          }),
        ),
      );
      if (given) claims += 1;
    }
    const texts = [item.firstName, item.lastName, item.email, item.officeName] as (string | null)[];
    if (await indexItem(table, 'LAWYERS', item, lawyerKey(item.id as string), texts)) indexed += 1;
    // His name beside the counters of his e-mail, where a page of automations reads it.
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: ownerCountersKey(item.email as string),
        UpdateExpression: 'SET firstName = :first, lastName = :last',
        ExpressionAttributeValues: { ':first': item.firstName, ':last': item.lastName },
      }),
    );
  }
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: { ...LAWYER_COUNTER_KEY, [counterAttribute('total')]: lawyers },
    }),
  );

  let folders = 0;
  for await (const item of listItems(table, [FOLDERS_PARTITION])) {
    if (item.entity !== 'Folder') continue;
    folders += 1;
    const id = item.id as string;
    if (await indexItem(table, 'FOLDERS', item, folderKey(id), [item.name as string])) indexed += 1;
    const counts = recount(workflows.filter((workflow) => workflow.folderId === id));
    await table.doc.send(
      new UpdateCommand({
        TableName: table.name,
        Key: folderKey(id),
        UpdateExpression: 'SET #t = :t, #a = :a, #s = :s',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: {
          '#t': counterAttribute('total'),
          '#a': counterAttribute('active'),
          '#s': counterAttribute('scheduled'),
        },
        ExpressionAttributeValues: { ':t': counts.total, ':a': counts.active, ':s': counts.scheduled },
      }),
    );
  }
  await table.doc.send(
    new PutCommand({
      TableName: table.name,
      Item: { ...FOLDER_COUNTER_KEY, [counterAttribute('total')]: folders },
    }),
  );
  return { workflows: workflows.length, lawyers, folders, indexed, claims };
}
