import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../domain/core/ports';
import {
  FolderNotEmptyError,
  FolderNotFoundError,
  type FolderRecord,
  type Folders,
  type JoinedWrite,
  type JoinedWritesOf,
} from '../../domain/directory/ports';
import { type SearchTerms, searchText } from '../../domain/directory/search-terms';
import { batchGetAll } from '../table/batch-get';
import { createdSortKey } from '../table/keys';
import type { ShardedList } from '../table/sharded-list';
import type { Table } from '../table/table';
import { isConditionFailure, isWriteConflict } from '../table/table-errors';
import { countsOf, folderCounterWrite } from './counters';
import { joinedItem } from './joined-writes';
import { counterAttribute, FOLDERS_PARTITION, folderKey } from './keys';
import { pageSearchedList, type SearchableItem, searchEntryWrites } from './search-index';

function toRecord(item: Record<string, unknown>): FolderRecord {
  const { total, active, scheduled } = countsOf([item]);
  return {
    id: item.id as string,
    name: item.name as string,
    description: (item.description as string | null) ?? null,
    counts: { total, active, scheduled },
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

/** Every folder in GSI1, newest first: one partition, one Query a page. */
const FOLDER_LIST: ShardedList = { name: FOLDERS_PARTITION, index: 'GSI1', partitions: [FOLDERS_PARTITION] };

/** A folder is searched by its name (spec §2). */
const searchable = (record: Pick<FolderRecord, 'id' | 'name' | 'createdAt'>): SearchableItem => ({
  partition: folderKey(record.id).PK,
  id: record.id,
  sortKey: createdSortKey(record.createdAt, record.id),
  texts: [record.name],
});

/** Folders (spec §7 folders calls). */
export class FolderRepository implements Folders {
  constructor(private readonly table: Table) {}

  /** Writes the folder, one more folder on the counter, and its search entries, together. */
  async create(record: Omit<FolderRecord, 'counts'>, alsoWrite: readonly JoinedWrite[] = []): Promise<void> {
    await this.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.table.name,
              Item: {
                ...folderKey(record.id),
                entity: 'Folder',
                GSI1PK: FOLDERS_PARTITION,
                GSI1SK: createdSortKey(record.createdAt, record.id),
                ...record,
                search: searchText([record.name]),
                [counterAttribute('total')]: 0,
                [counterAttribute('active')]: 0,
                [counterAttribute('scheduled')]: 0,
              },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          folderCounterWrite(this.table, 1),
          ...searchEntryWrites(this.table, 'FOLDERS', null, searchable(record)),
          ...alsoWrite.map((write) => joinedItem(this.table, write)),
        ],
      }),
    );
  }

  async getById(id: string): Promise<FolderRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: folderKey(id), ConsistentRead: true }),
    );
    return Item ? toRecord(Item) : null;
  }

  /** Several folders by id, in the order of `ids`; an id without a folder is left out. */
  async getMany(ids: readonly string[]): Promise<FolderRecord[]> {
    const items = await batchGetAll(this.table, ids.map(folderKey));
    const byId = new Map(items.map((item) => [item.id as string, item]));
    return ids.flatMap((id) => {
      const item = byId.get(id);
      return item ? [toRecord(item)] : [];
    });
  }

  /**
   * One page of folders, newest first; with a search, those whose name has a word beginning with
   * each of its words (the search index; a search of short words only filters the list, at most
   * `READ_BUDGET` pages a page).
   */
  async page(limit: number, cursor?: string, terms?: SearchTerms | null): Promise<Page<FolderRecord>> {
    return pageSearchedList(this.table, {
      list: 'FOLDERS',
      sharded: FOLDER_LIST,
      terms,
      limit,
      cursor,
      byIds: (ids) => this.getMany(ids),
      toRecord,
    });
  }

  /** Renames or re-describes a folder and returns it as it now is; its search entries follow its name. */
  async update(
    id: string,
    changes: Pick<FolderRecord, 'name' | 'description'>,
    now: string,
    alsoWrite?: JoinedWritesOf<FolderRecord>,
  ): Promise<FolderRecord> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.getById(id);
      if (!current) throw new FolderNotFoundError();
      const next: FolderRecord = { ...current, ...changes, updatedAt: now };
      try {
        await this.table.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.table.name,
                  Key: folderKey(id),
                  UpdateExpression:
                    'SET #name = :name, description = :description, updatedAt = :now, #search = :search',
                  ConditionExpression: 'updatedAt = :read',
                  ExpressionAttributeNames: { '#name': 'name', '#search': 'search' },
                  ExpressionAttributeValues: {
                    ':name': changes.name,
                    ':description': changes.description,
                    ':now': now,
                    ':search': searchText([changes.name]),
                    ':read': current.updatedAt,
                  },
                },
              },
              ...searchEntryWrites(this.table, 'FOLDERS', searchable(current), searchable(next)),
              ...(alsoWrite?.(next) ?? []).map((write) => joinedItem(this.table, write)),
            ],
          }),
        );
        return next;
      } catch (error) {
        // Its counters move with every automation filed or moved: read again and retry.
        if (attempt >= 5 || !(isConditionFailure(error) || isWriteConflict(error))) throw error;
      }
    }
  }

  /**
   * Deletes a folder that holds no automation (detaching them is the caller's first step), with its
   * search entries and one folder less on the counter. One filed in it meanwhile: FolderNotEmptyError.
   */
  async delete(folder: FolderRecord, alsoWrite: readonly JoinedWrite[] = []): Promise<void> {
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.table.name,
                Key: folderKey(folder.id),
                ConditionExpression:
                  'attribute_exists(PK) AND (attribute_not_exists(#total) OR #total = :zero)',
                ExpressionAttributeNames: { '#total': counterAttribute('total') },
                ExpressionAttributeValues: { ':zero': 0 },
              },
            },
            folderCounterWrite(this.table, -1),
            ...searchEntryWrites(this.table, 'FOLDERS', searchable(folder), null),
            ...alsoWrite.map((write) => joinedItem(this.table, write)),
          ],
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (await this.getById(folder.id)) throw new FolderNotEmptyError('Dossier non vide', { cause: error });
    }
  }
}
