import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../domain/core/ports';
import type { Folders } from '../../domain/directory/ports';
import { FolderNotFoundError, type FolderRecord } from '../../domain/directory/ports';
import { createdSortKey, listPartitions } from '../table/keys';
import { pageShardedList, type ShardedList } from '../table/sharded-list';
import { isConditionFailure, type Table } from '../table/table';
import { FOLDERS_PARTITION, folderKey, folderListPartition } from './keys';

function toRecord(item: Record<string, unknown>): FolderRecord {
  return {
    id: item.id as string,
    name: item.name as string,
    description: (item.description as string | null) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

/** Every folder in GSI1, newest first, over the list's shards. */
const FOLDER_LIST: ShardedList = {
  name: FOLDERS_PARTITION,
  index: 'GSI1',
  partitions: listPartitions(FOLDERS_PARTITION),
};

/** Folders (spec §7 folders calls). */
export class FolderRepository implements Folders {
  constructor(private readonly table: Table) {}

  async create(record: FolderRecord): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...folderKey(record.id),
          entity: 'Folder',
          GSI1PK: folderListPartition(record.id),
          GSI1SK: createdSortKey(record.createdAt, record.id),
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async getById(id: string): Promise<FolderRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: folderKey(id), ConsistentRead: true }),
    );
    return Item ? toRecord(Item) : null;
  }

  /** One page of folders, newest first. */
  async page(limit: number, cursor?: string): Promise<Page<FolderRecord>> {
    const page = await pageShardedList(this.table, FOLDER_LIST, limit, cursor);
    return { items: page.items.map(toRecord), nextCursor: page.nextCursor };
  }

  /** Renames or re-describes a folder and returns it as it now is. */
  async update(
    id: string,
    changes: Pick<FolderRecord, 'name' | 'description'>,
    now: string,
  ): Promise<FolderRecord> {
    try {
      const { Attributes } = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: folderKey(id),
          UpdateExpression: 'SET #name = :name, description = :description, updatedAt = :now',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: {
            ':name': changes.name,
            ':description': changes.description,
            ':now': now,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toRecord(Attributes ?? {});
    } catch (error) {
      if (isConditionFailure(error)) throw new FolderNotFoundError();
      throw error;
    }
  }

  /** Deletes a folder; detaching its workflows is the caller's first step. */
  async delete(id: string): Promise<void> {
    await this.table.doc.send(new DeleteCommand({ TableName: this.table.name, Key: folderKey(id) }));
  }
}
