import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

import type { RememberedDeviceRecord, RememberedDevices } from '../../domain/second-factor/ports';
import { queryAll } from '../table/query-all';
import type { Table } from '../table/table';
import { REMEMBERED_DEVICE_PREFIX, rememberedDeviceKey } from './keys';

function deviceFromItem(item: Record<string, unknown>): RememberedDeviceRecord {
  return {
    deviceId: item.deviceId as string,
    licenseKeyHash: item.licenseKeyHash as string,
    label: item.label as string,
    createdAt: item.createdAt as string,
    lastUsedAt: item.lastUsedAt as string,
    expiresAt: item.expiresAt as number,
  };
}

/**
 * The remembered browsers of a licence, in the licence's partition (a Query lists them, newest
 * use first by the caller); each expires with its cookie (TTL), and forgetting one deletes it.
 */
export type { RememberedDeviceRecord };

export class RememberedDeviceRepository implements RememberedDevices {
  constructor(private readonly table: Table) {}

  /** Remembers a browser, or renews one (its label, last use and expiry). */
  async put(record: RememberedDeviceRecord): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...rememberedDeviceKey(record.licenseKeyHash, record.deviceId),
          entity: 'RememberedDevice',
          ...record,
        },
      }),
    );
  }

  /** A remembered browser of the licence still in force at `nowSeconds`, or null. */
  async get(keyHash: string, deviceId: string, nowSeconds: number): Promise<RememberedDeviceRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.name,
        Key: rememberedDeviceKey(keyHash, deviceId),
        ConsistentRead: true,
      }),
    );
    // TTL deletes within days, not at once: an expired one is already forgotten.
    return Item && (Item.expiresAt as number) > nowSeconds ? deviceFromItem(Item) : null;
  }

  /** The licence's remembered browsers in force, at most `limit` (a licence keeps few). */
  async list(keyHash: string, nowSeconds: number, limit: number): Promise<RememberedDeviceRecord[]> {
    const { Items } = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        FilterExpression: 'expiresAt > :now',
        ExpressionAttributeValues: {
          ':pk': rememberedDeviceKey(keyHash, '').PK,
          ':prefix': REMEMBERED_DEVICE_PREFIX,
          ':now': nowSeconds,
        },
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (Items ?? []).map(deviceFromItem);
  }

  /** Forgets one remembered browser; says whether it was remembered. */
  async delete(keyHash: string, deviceId: string): Promise<boolean> {
    const { Attributes } = await this.table.doc.send(
      new DeleteCommand({
        TableName: this.table.name,
        Key: rememberedDeviceKey(keyHash, deviceId),
        ReturnValues: 'ALL_OLD',
      }),
    );
    return Attributes !== undefined;
  }

  /** Forgets every remembered browser of the licence but `except`; returns how many it forgot. */
  async deleteAll(keyHash: string, options: { readonly except?: string } = {}): Promise<number> {
    const items = await queryAll(this.table, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: {
        ':pk': rememberedDeviceKey(keyHash, '').PK,
        ':prefix': REMEMBERED_DEVICE_PREFIX,
      },
      ProjectionExpression: 'deviceId',
    });
    const forgotten = items.filter((item) => item.deviceId !== options.except);
    await Promise.all(forgotten.map((item) => this.delete(keyHash, item.deviceId as string)));
    return forgotten.length;
  }
}
