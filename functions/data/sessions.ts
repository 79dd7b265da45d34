import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';

import type { Role } from '../../shared/schemas/session';
import type { Table } from './table';

/** A server-side session: the token names it, 'Déconnexion' deletes it, TTL sweeps expired ones. */
export interface SessionRecord {
  sessionId: string;
  licenseKeyHash: string;
  role: Role;
  email: string;
  createdAt: string;
  /** Absolute expiry, epoch seconds (also the TTL attribute). */
  expiresAt: number;
}

const sessionKey = (sessionId: string) => ({ PK: `SESSION#${sessionId}`, SK: 'SESSION' });

export class SessionRepository {
  constructor(private readonly table: Table) {}

  async create(record: SessionRecord): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...sessionKey(record.sessionId), entity: 'Session', ...record },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async get(sessionId: string): Promise<SessionRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: sessionKey(sessionId), ConsistentRead: true }),
    );
    if (!Item) return null;
    return {
      sessionId: Item.sessionId as string,
      licenseKeyHash: Item.licenseKeyHash as string,
      role: Item.role as Role,
      email: Item.email as string,
      createdAt: Item.createdAt as string,
      expiresAt: Item.expiresAt as number,
    };
  }

  async delete(sessionId: string): Promise<void> {
    await this.table.doc.send(new DeleteCommand({ TableName: this.table.name, Key: sessionKey(sessionId) }));
  }
}
