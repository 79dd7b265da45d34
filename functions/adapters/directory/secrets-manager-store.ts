import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';

import { EntityId } from '../../../shared/schemas/common';
import { type LawyerSecrets, LawyerSecrets as LawyerSecretsSchema } from '../../../shared/schemas/lawyer';
import type { LawyerSecretStore } from '../../domain/directory/ports';

const isNamed = (error: unknown, name: string) => error instanceof Error && error.name === name;

/**
 * Lawyer secrets in AWS Secrets Manager: one secret per lawyer, named `<prefix><lawyer id>`, so
 * that the functions' IAM policies can be scoped to `arn:...:secret:<prefix>*`.

 */
export class SecretsManagerLawyerSecretStore implements LawyerSecretStore {
  constructor(
    private readonly client: SecretsManagerClient,
    private readonly prefix: () => string,
  ) {}

  async put(lawyerId: string, secrets: LawyerSecrets): Promise<void> {
    const name = this.secretName(lawyerId);
    const SecretString = JSON.stringify(LawyerSecretsSchema.parse(secrets));
    try {
      await this.client.send(new PutSecretValueCommand({ SecretId: name, SecretString }));
      return;
    } catch (error) {
      if (!isNamed(error, 'ResourceNotFoundException')) throw error;
    }
    try {
      await this.client.send(
        new CreateSecretCommand({
          Name: name,
          Description: "Mot de passe et identifiants OAuth Google d'un avocat",
          SecretString,
        }),
      );
    } catch (error) {
      // Created by a concurrent save between our two calls: write over it like any other save.
      if (!isNamed(error, 'ResourceExistsException')) throw error;
      await this.client.send(new PutSecretValueCommand({ SecretId: name, SecretString }));
    }
  }

  async get(lawyerId: string): Promise<LawyerSecrets | null> {
    try {
      const { SecretString } = await this.client.send(
        new GetSecretValueCommand({ SecretId: this.secretName(lawyerId) }),
      );
      return SecretString ? LawyerSecretsSchema.parse(JSON.parse(SecretString)) : null;
    } catch (error) {
      if (isNamed(error, 'ResourceNotFoundException')) return null;
      throw error;
    }
  }

  async delete(lawyerId: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteSecretCommand({ SecretId: this.secretName(lawyerId), ForceDeleteWithoutRecovery: true }),
      );
    } catch (error) {
      if (!isNamed(error, 'ResourceNotFoundException')) throw error;
    }
  }

  /** Only a server-generated id may become part of a secret name (the IAM scope relies on it). */
  private secretName(lawyerId: string): string {
    return `${this.prefix()}${EntityId.parse(lawyerId)}`;
  }
}
