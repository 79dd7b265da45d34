import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { handlerPathOf, NEEDS } from '../../functions/needs';
import { ENVIRONMENT } from '../../functions/runtime/environment';
import { AppFunction } from './app-function';
import { repositoryPath } from './repository';

/**
 * The firms' data exports ('Exporter mes données'): a private bucket whose objects (and unfinished
 * uploads) a lifecycle rule deletes after a day, S3's shortest (the download link itself lasts an
 * hour), and the builder function a request invokes asynchronously. Requests and the builder are
 * granted through the `grant…` methods, by the stack, from their declared needs.
 */
export class DataExports extends Construct {
  readonly bucket: s3.Bucket;
  readonly builder: AppFunction;

  constructor(scope: Construct, id: string, props: { readonly removalPolicy?: RemovalPolicy } = {}) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.DESTROY;
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Only what a request's role can read is downloadable: a pre-signed link is its signature.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [
        {
          id: 'exports-un-jour',
          expiration: Duration.days(1),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      // Its objects live a day at most: a stack deleted a day after its last export leaves nothing.
      removalPolicy,
    });
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'Each object lives a day; who asked for it and when is in the audit trail (lawyer.export), ' +
          'and its link is a pre-signed URL of a role only the exports function has.',
      },
    ]);

    const timeout = NEEDS['data-export-builder'].timeoutSeconds ?? 900;
    this.builder = new AppFunction(this, 'Builder', {
      entry: repositoryPath(handlerPathOf('data-export-builder')),
      needs: 'data-export-builder',
      description: "Exports des données : construit l'archive ZIP d'un cabinet dans le bucket des exports",
      timeout: Duration.seconds(timeout),
      // CPU for deflate comes with memory; a part of 8 MiB and a page of rows at a time stay small.
      memorySize: 1024,
    });
    NagSuppressions.addResourceSuppressions(this.builder, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'A failed build marks its export failed and the firm is told to ask again; the error is ' +
          'in the logs and the DataExportFailed metric. Replaying it later would be no use.',
      },
    ]);
    // On the alias: asynchronous invocations go through it, so its settings are the ones used.
    this.builder.live.configureAsyncInvoke({ retryAttempts: 0 });
    NagSuppressions.addResourceSuppressions(
      this.builder,
      [
        {
          id: 'Serverless-LambdaAsyncFailureDestination',
          reason:
            'A failed build is not retried: it marks its export failed (the firm asks again) and ' +
            'counts DataExportFailed, which raises an alarm; an on-failure queue would keep nothing of use.',
        },
      ],
      true,
    );
  }

  /** A request: starts the builder and signs the download links (reads the bucket's objects). */
  grantRequest(fn: lambda.Function): void {
    this.builder.live.grantInvoke(fn);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [this.bucket.arnForObjects('exports/*')],
      }),
    );
    fn.addEnvironment(ENVIRONMENT.exportBucketName, this.bucket.bucketName);
    fn.addEnvironment(ENVIRONMENT.exportBuilderFunctionName, this.builder.live.functionArn);
    this.suppressWildcards(fn);
  }

  /** The builder: writes the archives (multipart uploads). */
  grantBuild(fn: lambda.Function): void {
    // PutObject covers the multipart upload's create, parts and completion.
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
        resources: [this.bucket.arnForObjects('exports/*')],
      }),
    );
    fn.addEnvironment(ENVIRONMENT.exportBucketName, this.bucket.bucketName);
    this.suppressWildcards(fn);
  }

  private suppressWildcards(fn: lambda.Function): void {
    if (!fn.role) return;
    NagSuppressions.addResourceSuppressions(
      fn.role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'The exports bucket under exports/ (one object per export, named by its id); nothing else.',
          appliesTo: [{ regex: '/^Resource::<DataExportsBucket.*\\.Arn>\\/exports\\/\\*$/' }],
        },
      ],
      true,
    );
  }
}
