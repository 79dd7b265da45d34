import { CustomResource, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { AppFunction } from './app-function';
import { repositoryPath } from './repository';

export interface FirstCreateCleanupProps {
  /** Buckets that objects may reach during the create (the site copy, access logs). */
  readonly buckets: readonly s3.IBucket[];
  /** The table this stack created, whose deletion protection would block a rollback. */
  readonly table?: dynamodb.Table;
}

/**
 * Lets a first create that fails roll back to nothing: CloudFormation cannot delete a bucket that
 * holds objects nor a table under deletion protection, and would leave them to block the next try.
 */
export class FirstCreateCleanup extends Construct {
  constructor(scope: Construct, id: string, props: FirstCreateCleanupProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const handler = new AppFunction(this, 'Handler', {
      entry: repositoryPath('lib', 'constructs', 'first-create-cleanup-handler.ts'),
      description:
        'Vide les buckets et lève la protection de la table quand une première création est annulée',
      timeout: Duration.minutes(5),
      memorySize: 256,
    });
    handler.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['cloudformation:DescribeStacks'], resources: [stack.stackId] }),
    );
    for (const bucket of props.buckets) {
      handler.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['s3:ListBucket', 's3:DeleteBucket'],
          resources: [bucket.bucketArn],
        }),
      );
      handler.addToRolePolicy(
        new iam.PolicyStatement({ actions: ['s3:DeleteObject'], resources: [bucket.arnForObjects('*')] }),
      );
    }
    if (props.table) {
      handler.addToRolePolicy(
        new iam.PolicyStatement({ actions: ['dynamodb:UpdateTable'], resources: [props.table.tableArn] }),
      );
    }
    NagSuppressions.addResourceSuppressions(handler, [
      {
        id: 'Serverless-LambdaDLQ',
        reason: 'CloudFormation custom resource: CloudFormation waits for its reply; nothing to replay.',
      },
    ]);
    NagSuppressions.addResourceSuppressions(
      handler.role ?? handler,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Deletes the objects of the stack’s own buckets (`<bucket>/*`: the site, its logs, the ' +
            'exports) when their first create rolls back; object keys are not known in advance.',
          appliesTo: [{ regex: '/^Resource::<(Site|DataExports).*\\.Arn>\\/\\*$/' }],
        },
      ],
      true,
    );

    const resource = new CustomResource(this, 'Resource', {
      serviceToken: handler.functionArn,
      resourceType: 'Custom::FirstCreateCleanup',
      serviceTimeout: Duration.minutes(6),
      // Kept, so never called, on every operation but the rollback of the create that made it.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      properties: {
        Buckets: props.buckets.map((bucket) => bucket.bucketName),
        ...(props.table ? { TableName: props.table.tableName } : {}),
      },
    });
    // Deleted before what it cleans: CloudFormation deletes dependents first.
    for (const bucket of props.buckets) resource.node.addDependency(bucket);
    if (props.table) resource.node.addDependency(props.table);
  }
}
