import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ChallengePurpose, WebAuthnChallenges } from '../../domain/second-factor/ports';
import type { Table } from '../table/table';
import { webAuthnChallengeKey } from './keys';

/**
 * The WebAuthn challenge a session was last given, kept beside the session (TTL) and taken once:
 * answering it deletes it, so an answer cannot be replayed.
 */
export class WebAuthnChallengeRepository implements WebAuthnChallenges {
  constructor(private readonly table: Table) {}

  async put(
    sessionId: string,
    purpose: ChallengePurpose,
    challenge: string,
    expiresAt: number,
  ): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...webAuthnChallengeKey(sessionId, purpose),
          entity: 'WebAuthnChallenge',
          challenge,
          expiresAt,
        },
      }),
    );
  }

  /** The challenge, removed in the same call; null when there is none or it has expired. */
  async take(sessionId: string, purpose: ChallengePurpose, nowSeconds: number): Promise<string | null> {
    const { Attributes } = await this.table.doc.send(
      new DeleteCommand({
        TableName: this.table.name,
        Key: webAuthnChallengeKey(sessionId, purpose),
        ReturnValues: 'ALL_OLD',
      }),
    );
    if (!Attributes || (Attributes.expiresAt as number) <= nowSeconds) return null;
    return Attributes.challenge as string;
  }
}
