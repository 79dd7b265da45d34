import { DeleteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../../domain/directory/ports';
import type { PasskeyRecord } from '../../domain/identity/ports';
import { SecondFactorChangedError, type SecondFactors } from '../../domain/second-factor/ports';
import { auditEntryPut } from '../directory/audit';
import { secondFactorKey } from '../identity/keys';
import { SecondFactorReader } from '../identity/second-factor-item';
import { queryAll } from '../table/query-all';
import type { Table } from '../table/table';
import { isConditionFailure } from '../table/table-errors';
import { REMEMBERED_DEVICE_PREFIX, SECOND_FACTOR_PREFIX } from './keys';

/**
 * Every write that consumes something (a time step, a recovery code, an enrolment) is a conditional
 * update, so two concurrent requests can never both use the same code.
 */
export class SecondFactorRepository extends SecondFactorReader implements SecondFactors {
  /** Keeps a TOTP secret shown for scanning until a first code confirms it (replaces any earlier one). */
  async savePendingTotp(keyHash: string, encryptedSecret: string): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: secondFactorKey(keyHash),
        UpdateExpression: 'SET entity = :entity, pendingTotpSecret = :secret',
        ExpressionAttributeValues: { ':entity': 'SecondFactor', ':secret': encryptedSecret },
      }),
    );
  }

  /**
   * Confirms the pending TOTP secret (it must still be the one the code was checked against) as the
   * licence's TOTP factor, with the time step just used. With `recoveryCodeHashes`, this is the
   * licence's first factor: the codes are stored and the enrolment dated, once.
   */
  async confirmTotp(
    keyHash: string,
    encryptedSecret: string,
    step: number,
    firstFactor: { readonly recoveryCodeHashes: string[]; readonly at: string } | null,
  ): Promise<void> {
    await this.conditionalUpdate({
      Key: secondFactorKey(keyHash),
      UpdateExpression: `SET totp = :totp${firstFactor ? ', enrolledAt = :at, recoveryCodes = :codes' : ''} REMOVE pendingTotpSecret`,
      ConditionExpression: `pendingTotpSecret = :secret${firstFactor ? ' AND attribute_not_exists(enrolledAt)' : ''}`,
      ExpressionAttributeValues: {
        ':totp': { secret: encryptedSecret, lastStep: step },
        ':secret': encryptedSecret,
        ...(firstFactor ? { ':at': firstFactor.at, ':codes': new Set(firstFactor.recoveryCodeHashes) } : {}),
      },
    });
  }

  /** Adds a passkey; as for TOTP, `firstFactor` stores the recovery codes of a first enrolment. */
  async addPasskey(
    keyHash: string,
    passkey: PasskeyRecord,
    maxPasskeys: number,
    firstFactor: { readonly recoveryCodeHashes: string[]; readonly at: string } | null,
  ): Promise<void> {
    await this.conditionalUpdate({
      Key: secondFactorKey(keyHash),
      UpdateExpression: `SET entity = :entity, passkeys = list_append(if_not_exists(passkeys, :none), :passkey)${
        firstFactor ? ', enrolledAt = :at, recoveryCodes = :codes' : ''
      }`,
      ConditionExpression: `(attribute_not_exists(passkeys) OR size(passkeys) < :max)${
        firstFactor ? ' AND attribute_not_exists(enrolledAt)' : ''
      }`,
      ExpressionAttributeValues: {
        ':entity': 'SecondFactor',
        ':none': [],
        ':passkey': [passkey],
        ':max': maxPasskeys,
        ...(firstFactor ? { ':at': firstFactor.at, ':codes': new Set(firstFactor.recoveryCodeHashes) } : {}),
      },
    });
  }

  /** Accepts a TOTP time step only if it is later than the last one accepted (a replay fails). */
  async consumeTotpStep(keyHash: string, step: number): Promise<void> {
    await this.conditionalUpdate({
      Key: secondFactorKey(keyHash),
      UpdateExpression: 'SET totp.lastStep = :step',
      ConditionExpression: 'attribute_exists(totp) AND totp.lastStep < :step',
      ExpressionAttributeValues: { ':step': step },
    });
  }

  /** Uses a recovery code once: removed from the set only if it is still in it. */
  async consumeRecoveryCode(keyHash: string, codeHash: string): Promise<void> {
    await this.conditionalUpdate({
      Key: secondFactorKey(keyHash),
      UpdateExpression: 'DELETE recoveryCodes :code',
      ConditionExpression: 'contains(recoveryCodes, :hash)',
      ExpressionAttributeValues: { ':code': new Set([codeHash]), ':hash': codeHash },
    });
  }

  /** Records a passkey's new signature counter (it must still be at `index`). */
  async updatePasskeyCounter(keyHash: string, index: number, id: string, counter: number): Promise<void> {
    await this.conditionalUpdate({
      Key: secondFactorKey(keyHash),
      UpdateExpression: `SET passkeys[${index}].#counter = :counter`,
      ConditionExpression: `passkeys[${index}].id = :id`,
      ExpressionAttributeNames: { '#counter': 'counter' },
      ExpressionAttributeValues: { ':counter': counter, ':id': id },
    });
  }

  /**
   * Removes the licence's TOTP factor. `last`: it is the licence's only factor, and the whole
   * record goes (recovery codes and enrolment date with it, so that a next factor is a first one
   * again); else the passkeys stay. Conditional on the record being as the caller read it.
   */
  async removeTotp(keyHash: string, last: boolean): Promise<void> {
    if (last) {
      await this.conditionalDelete({
        Key: secondFactorKey(keyHash),
        ConditionExpression:
          'attribute_exists(totp) AND (attribute_not_exists(passkeys) OR size(passkeys) = :zero)',
        ExpressionAttributeValues: { ':zero': 0 },
      });
      return;
    }
    await this.conditionalUpdate({
      Key: secondFactorKey(keyHash),
      UpdateExpression: 'REMOVE totp',
      ConditionExpression: 'attribute_exists(totp) AND size(passkeys) > :zero',
      ExpressionAttributeValues: { ':zero': 0 },
    });
  }

  /** Removes the passkey at `index` (it must still be `id` there); `last` as for `removeTotp`. */
  async removePasskey(keyHash: string, index: number, id: string, last: boolean): Promise<void> {
    if (last) {
      await this.conditionalDelete({
        Key: secondFactorKey(keyHash),
        ConditionExpression: `passkeys[${index}].id = :id AND size(passkeys) = :one AND attribute_not_exists(totp)`,
        ExpressionAttributeValues: { ':id': id, ':one': 1 },
      });
      return;
    }
    await this.conditionalUpdate({
      Key: secondFactorKey(keyHash),
      UpdateExpression: `REMOVE passkeys[${index}]`,
      ConditionExpression: `passkeys[${index}].id = :id AND (attribute_exists(totp) OR size(passkeys) > :one)`,
      ExpressionAttributeValues: { ':id': id, ':one': 1 },
    });
  }

  /** Removes the licence's factor altogether (a reset: it must enrol again), with its audit entry. */
  async delete(keyHash: string, audit?: AuditRecord): Promise<void> {
    const remove = { TableName: this.table.name, Key: secondFactorKey(keyHash) };
    if (!audit) {
      await this.table.doc.send(new DeleteCommand(remove));
      return;
    }
    await this.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [{ Delete: remove }, auditEntryPut(this.table, audit)],
      }),
    );
  }

  /** Removes the factor, its attempt counts and its remembered browsers, when the licence itself goes. */
  async erase(keyHash: string): Promise<void> {
    await deleteSecondFactorItems(this.table, keyHash);
  }

  private async conditionalDelete(
    command: Omit<ConstructorParameters<typeof DeleteCommand>[0], 'TableName'>,
  ): Promise<void> {
    try {
      await this.table.doc.send(new DeleteCommand({ TableName: this.table.name, ...command }));
    } catch (error) {
      if (isConditionFailure(error))
        throw new SecondFactorChangedError('Second facteur modifié', { cause: error });
      throw error;
    }
  }

  private async conditionalUpdate(
    command: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>,
  ): Promise<void> {
    try {
      await this.table.doc.send(new UpdateCommand({ TableName: this.table.name, ...command }));
    } catch (error) {
      if (isConditionFailure(error))
        throw new SecondFactorChangedError('Second facteur modifié', { cause: error });
      throw error;
    }
  }
}

/**
 * Deletes everything of a licence's second factor (the factor, its attempt counts, its remembered
 * browsers), when the licence itself goes: nothing keyed by its hash may outlive it.
 */
export async function deleteSecondFactorItems(table: Table, keyHash: string): Promise<void> {
  const PK = secondFactorKey(keyHash).PK;
  const items = (
    await Promise.all(
      [SECOND_FACTOR_PREFIX, REMEMBERED_DEVICE_PREFIX].map((prefix) =>
        queryAll(table, {
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': PK, ':prefix': prefix },
          ProjectionExpression: 'PK, SK',
        }),
      ),
    )
  ).flat();
  for (const item of items) {
    await table.doc.send(new DeleteCommand({ TableName: table.name, Key: { PK: item.PK, SK: item.SK } }));
  }
}
