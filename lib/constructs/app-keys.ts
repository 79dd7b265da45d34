import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import type { ServerKeyName } from '../../functions/needs';
import { ENVIRONMENT, KEY_VARIABLES } from '../../functions/runtime/environment';

import { AppFunction } from './app-function';
import { repositoryPath } from './repository';

const KEY_SECRETS = {
  sessionSigning: {
    id: 'SessionSigningKey',
    description: 'Clé du serveur : signature des jetons de session',
  },
  licenseHash: {
    id: 'LicenseHashKey',
    description: 'Clé du serveur : hachage des clés de licence (recherches)',
  },
  licenseEncryption: {
    id: 'LicenseEncryptionKey',
    description: 'Clé du serveur : chiffrement de la copie des clés de licence',
  },
} as const satisfies Record<ServerKeyName, { id: string; description: string }>;

const NOT_ROTATED =
  'Not rotated on purpose: a new session-signing key signs every user out, and the licence ' +
  'hash and encryption keys cannot change without re-hashing and re-encrypting every licence key, ' +
  'which only their holders know.';

/**
 * The server's three keys, each its own secret so that a function is granted only the keys it
 * declares, written once by a small custom resource (`app-keys-handler.ts`). Never change the
 * secrets' generation settings: new keys would sign everyone out and void every licence key.
 */
export interface AppKeysProps {
  /**
   * What happens to the secrets when the stack is deleted.
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE (losing the keys makes every licence key unreadable)
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * A second region where Secrets Manager keeps a read-only replica of each key secret, kept in sync
   * with every change: the keys survive the loss of the main region (docs/operations.md).
   * @default - no replica
   */
  readonly replicaRegion?: string;
  /**
   * The combined secret of a deployment made before the keys were split: the custom resource copies
   * its keys into their own secrets, so stored hashes still match and nobody is signed out.
   * @default - none: the keys are generated
   */
  readonly legacySecretArn?: string;
}

export class AppKeys extends Construct {
  readonly secrets: Readonly<Record<ServerKeyName, secretsmanager.Secret>>;
  private readonly keys: CustomResource;

  constructor(scope: Construct, id: string, props: AppKeysProps = {}) {
    super(scope, id);
    const retention = {
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      ...(props.replicaRegion ? { replicaRegions: [{ region: props.replicaRegion }] } : {}),
    };
    const secrets = {} as Record<ServerKeyName, secretsmanager.Secret>;
    for (const [name, { id: secretId, description }] of Object.entries(KEY_SECRETS) as [
      ServerKeyName,
      (typeof KEY_SECRETS)[ServerKeyName],
    ][]) {
      secrets[name] = new secretsmanager.Secret(this, secretId, {
        description,
        ...retention,
      });
    }
    this.secrets = secrets;
    for (const secret of Object.values(secrets)) {
      NagSuppressions.addResourceSuppressions(secret, [{ id: 'AwsSolutions-SMG4', reason: NOT_ROTATED }]);
    }

    const generator = new AppFunction(this, 'Generator', {
      entry: repositoryPath('lib', 'constructs', 'app-keys-handler.ts'),
      description: 'Génère (ou reprend de l’ancien secret) les clés du serveur, un secret par clé',
      timeout: Duration.minutes(1),
      memorySize: 256,
    });
    generator.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
        resources: Object.values(secrets).map((secret) => secret.secretArn),
      }),
    );
    if (props.legacySecretArn) {
      generator.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [props.legacySecretArn],
        }),
      );
    }
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
      // A handler that crashed would otherwise hold the deployment for CloudFormation's hour.
      serviceTimeout: Duration.minutes(2),
      properties: {
        ...(props.legacySecretArn ? { LegacySecretId: props.legacySecretArn } : {}),
        SessionSigningKey: secrets.sessionSigning.secretArn,
        LicenseHashKey: secrets.licenseHash.secretArn,
        LicenseEncryptionKey: secrets.licenseEncryption.secretArn,
      },
    });
  }

  /** The ARN of a key's secret. */
  secretArnOf(key: ServerKeyName): string {
    return this.secrets[key].secretArn;
  }

  /**
   * Lets a function read one key: sets its variable, grants GetSecretValue on that key's secret
   * only, and deploys the function after the keys are written.
   */
  grantRead(fn: lambda.Function, key: ServerKeyName): void {
    fn.addEnvironment(ENVIRONMENT[KEY_VARIABLES[key]], this.secrets[key].secretArn);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [this.secrets[key].secretArn],
      }),
    );
    fn.node.addDependency(this.keys);
  }
}
