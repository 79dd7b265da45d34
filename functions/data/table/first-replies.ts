import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

import type { FirstReplies, FirstReply } from '../../domain/core/ports';
import type { Table } from './table';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A client retries within minutes; a day covers a browser left offline overnight. */
const KEPT_SECONDS = 24 * 60 * 60;

const firstReplyKey = (key: string) => ({ PK: `REPLY#${key}`, SK: 'REPLY' });

/**
 * The first reply to each create sent with an Idempotency-Key, written in the create's own
 * transaction (so a create is never saved without it) and removed by TTL after a day.
 */
export class FirstReplyRepository implements FirstReplies {
  constructor(private readonly table: Table) {}

  async get(key: string): Promise<FirstReply | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: firstReplyKey(key), ConsistentRead: true }),
    );
    if (!Item) return null;
    return {
      key,
      requestHash: Item.requestHash as string,
      statusCode: Item.statusCode as number,
      body: JSON.parse(Item.body as string) as unknown,
      at: Item.at as string,
    };
  }
}

/** A first reply's put inside the create's transaction; a second create under the key fails it. */
export function firstReplyPut(table: Table, reply: FirstReply): TransactItem {
  return {
    Put: {
      TableName: table.name,
      Item: {
        ...firstReplyKey(reply.key),
        entity: 'FirstReply',
        requestHash: reply.requestHash,
        statusCode: reply.statusCode,
        body: JSON.stringify(reply.body),
        at: reply.at,
        expiresAt: Math.floor(Date.parse(reply.at) / 1000) + KEPT_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}
