import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PasskeyRecord, SecondFactorReads, SecondFactorRecord } from '../../domain/identity/ports';
import type { Table } from '../table/table';
import { secondFactorKey } from './keys';

/** A licence's second-factor item as a record (also for the reads that fetch it beside its licence). */
export function secondFactorFromItem(keyHash: string, item: Record<string, unknown>): SecondFactorRecord {
  const totp = item.totp as { secret: string; lastStep: number } | undefined;
  return {
    licenseKeyHash: keyHash,
    totp: totp ? { secret: totp.secret, lastStep: totp.lastStep } : null,
    pendingTotpSecret: (item.pendingTotpSecret as string | undefined) ?? null,
    passkeys: ((item.passkeys as PasskeyRecord[] | undefined) ?? []).map((passkey) => ({
      id: passkey.id,
      publicKey: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports ?? [],
      createdAt: passkey.createdAt,
    })),
    recoveryCodeHashes: [...((item.recoveryCodes as Set<string> | undefined) ?? [])],
    enrolledAt: (item.enrolledAt as string | undefined) ?? null,
  };
}

/** Reads a licence's factor, and nothing else: what a session check needs, in every bundle. */
export class SecondFactorReader implements SecondFactorReads {
  constructor(protected readonly table: Table) {}

  async get(keyHash: string): Promise<SecondFactorRecord | null> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: secondFactorKey(keyHash), ConsistentRead: true }),
    );
    return Item ? secondFactorFromItem(keyHash, Item) : null;
  }
}
