import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { ENVIRONMENT } from '../../functions/runtime/environment';

import { AppFunction } from './app-function';
import { repositoryPath } from './repository';

/** The environment variable that names the keys secret to a function (read by `functions/runtime/aws.ts`). */
export const APP_KEYS_SECRET_ARN_ENV = ENVIRONMENT.appKeysSecretArn;

/**
 * The server's own keys in one Secrets Manager secret: JSON `{ sessionSigningKey, licenseHashKey,
 * licenseEncryptionKey }`, each the base64 of 32 random bytes (`functions/security/app-keys.ts`).
 *
 * Secrets Manager's `generateSecretString` fills one JSON key with a password, not three with
 * random bytes, so a small custom resource (`app-keys-handler.ts`) writes the keys once, with the
 * same generator as the local runtime. The secret is created with Secrets Manager's placeholder
 * password, which the custom resource replaces; it never rewrites valid keys afterwards. Nothing
 * secret is in the template or the custom resource's reply.
 *
 * Never change the secret's generation settings: CloudFormation would generate a new value and
 * the custom resource would then write new keys, signing everyone out and invalidating every
 * licence key (their hashes use `licenseHashKey`). For the same reason prod retains the secret
 * when the stack is deleted, like the table, and keeps a replica in a second region.
 */
export interface AppKeysProps {
  /**
   * What happens to the secret when the stack is deleted.
   * @default RemovalPolicy.RETAIN (losing the keys makes every licence key unreadable)
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * A second region where Secrets Manager keeps a read-only replica of the secret, kept in sync
   * with every change: the keys survive the loss of the main region's secret (it can be promoted
   * to a standalone secret there; docs/operations.md, "Recovering the server keys").
   * @default - no replica
   */
  readonly replicaRegion?: string;
}

export class AppKeys extends Construct {
  readonly secret: secretsmanager.Secret;
  private readonly keys: CustomResource;

  constructor(scope: Construct, id: string, props: AppKeysProps = {}) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      description: 'Clés du serveur : signature des sessions, hachage et chiffrement des clés de licence',
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
      ...(props.replicaRegion ? { replicaRegions: [{ region: props.replicaRegion }] } : {}),
    });
    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'Not rotated on purpose: a new session-signing key signs every user out, and the licence ' +
          'hash key cannot change without re-hashing every licence key, which only their holders know.',
      },
    ]);

    const generator = new AppFunction(this, 'Generator', {
      entry: repositoryPath('lib', 'constructs', 'app-keys-handler.ts'),
      description: 'Génère les clés du serveur dans leur secret au premier déploiement',
      timeout: Duration.minutes(1),
      memorySize: 256,
    });
    generator.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
        resources: [this.secret.secretArn],
      }),
    );
    NagSuppressions.addResourceSuppressions(generator, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'CloudFormation custom resource: CloudFormation waits for its reply and fails the ' +
          'deployment if none comes; a dead-letter queue would hold nothing to replay.',
      },
    ]);

    this.keys = new CustomResource(this, 'Keys', {
      serviceToken: generator.functionArn,
      resourceType: 'Custom::AppKeys',
      properties: { SecretId: this.secret.secretArn },
    });
  }

  get secretArn(): string {
    return this.secret.secretArn;
  }

  /**
   * Lets a function read the keys: sets `APP_KEYS_SECRET_ARN`, grants GetSecretValue on this
   * secret only, and deploys the function after the keys are written.
   */
  grantRead(fn: lambda.Function): void {
    fn.addEnvironment(APP_KEYS_SECRET_ARN_ENV, this.secret.secretArn);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [this.secret.secretArn],
      }),
    );
    fn.node.addDependency(this.keys);
  }
}
