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
 * The server's three keys, each in its own Secrets Manager secret (the base64 of 32 random
 * bytes, `functions/security/app-keys.ts`), so that a function is granted only the keys it
 * declares (`functions/needs.ts`): one that verifies sessions cannot decrypt stored licence keys.
 *
 * A small custom resource (`app-keys-handler.ts`) writes the keys once. Migration: deployments
 * made before the split keep their combined secret (`Secret`, JSON of the three keys, retained
 * and now read by the generator alone); the generator copies each key from it into the key's own
 * secret, so every stored hash and cipher still matches and nobody is signed out. On a fresh
 * deployment that secret holds Secrets Manager's placeholder and the keys are generated. Valid
 * keys are never rewritten. Nothing secret is in the template or the custom resource's reply.
 *
 * Never change the secrets' generation settings: CloudFormation would generate new values and the
 * custom resource would then write new keys, signing everyone out and invalidating every licence
 * key. For the same reason they are retained when the stack is deleted (unless the stage says
 * otherwise), like the table, and prod keeps a replica of each in a second region.
 */
export interface AppKeysProps {
  /**
   * What happens to the secrets when the stack is deleted.
   * @default RemovalPolicy.RETAIN (losing the keys makes every licence key unreadable)
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * A second region where Secrets Manager keeps a read-only replica of each key secret, kept in sync
   * with every change: the keys survive the loss of the main region's secret (it can be promoted
   * to a standalone secret there; docs/operations.md, "Recovering the server keys").
   * @default - no replica
   */
  readonly replicaRegion?: string;
}

export class AppKeys extends Construct {
  /** The combined secret of deployments made before the split: the migration's source only. */
  readonly legacySecret: secretsmanager.Secret;
  readonly secrets: Readonly<Record<ServerKeyName, secretsmanager.Secret>>;
  private readonly keys: CustomResource;

  constructor(scope: Construct, id: string, props: AppKeysProps = {}) {
    super(scope, id);
    const retention = {
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
      ...(props.replicaRegion ? { replicaRegions: [{ region: props.replicaRegion }] } : {}),
    };
    // Same construct id as before the split, so an existing deployment keeps (and migrates) it.
    this.legacySecret = new secretsmanager.Secret(this, 'Secret', {
      description:
        'Ancien secret des clés du serveur (les trois clés ensemble) : source de la migration vers un secret par clé',
      ...retention,
    });
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
    for (const secret of [this.legacySecret, ...Object.values(secrets)]) {
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
    generator.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [this.legacySecret.secretArn],
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
      properties: {
        LegacySecretId: this.legacySecret.secretArn,
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
