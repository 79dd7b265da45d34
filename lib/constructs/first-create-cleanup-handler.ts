import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  NoSuchBucket,
  S3Client,
} from '@aws-sdk/client-s3';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';

import { replyToCloudFormation } from './custom-resource-reply';

/** The only stack state in which emptying kept resources is what the operator wants. */
export const FIRST_CREATE_ROLLBACK = 'ROLLBACK_IN_PROGRESS';

export interface CleanupTargets {
  readonly stackId: string;
  readonly buckets: readonly string[];
  readonly tableName?: string;
}

export interface CleanupClients {
  readonly cloudFormation: CloudFormationClient;
  readonly s3: S3Client;
  readonly dynamoDb: DynamoDBClient;
}

/**
 * Undoes what keeps a rolled-back first create from deleting its own resources: objects in the
 * buckets and the table's deletion protection. Does nothing unless the stack is rolling back its
 * creation, so a stray invocation cannot touch a running stage. Returns what it did.
 */
export async function cleanUpFirstCreate(
  targets: CleanupTargets,
  clients: CleanupClients,
): Promise<string[]> {
  const { Stacks } = await clients.cloudFormation.send(
    new DescribeStacksCommand({ StackName: targets.stackId }),
  );
  const status = Stacks?.[0]?.StackStatus;
  if (status !== FIRST_CREATE_ROLLBACK) return [`stack ${status ?? 'unknown'}: nothing done`];
  const done: string[] = [];
  for (const bucket of targets.buckets) done.push(await emptyAndDelete(clients.s3, bucket));
  if (targets.tableName) {
    await clients.dynamoDb.send(
      new UpdateTableCommand({ TableName: targets.tableName, DeletionProtectionEnabled: false }),
    );
    done.push(`table ${targets.tableName}: deletion protection off`);
  }
  return done;
}

/** Deletes the bucket itself too: a log file delivered between emptying and CloudFormation's delete would block it. */
async function emptyAndDelete(s3: S3Client, bucket: string): Promise<string> {
  let removed = 0;
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      for (;;) {
        const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1000 }));
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (keys.length === 0) break;
        await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
        removed += keys.length;
      }
      try {
        await s3.send(new DeleteBucketCommand({ Bucket: bucket }));
        return `bucket ${bucket}: ${removed} objects removed, bucket deleted`;
      } catch (error) {
        if (!(error instanceof Error) || error.name !== 'BucketNotEmpty') throw error;
      }
    }
    return `bucket ${bucket}: ${removed} objects removed, still receiving objects`;
  } catch (error) {
    if (error instanceof NoSuchBucket || (error instanceof Error && error.name === 'NoSuchBucket')) {
      return `bucket ${bucket}: already gone`;
    }
    throw error;
  }
}

/**
 * `Custom::FirstCreateCleanup`: nothing on Create and Update; on Delete, the cleanup above. Its
 * deletion policy keeps it on every stack operation but a rolled-back creation, the one Delete it gets.
 */
export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  const properties = event.ResourceProperties as Record<string, unknown>;
  const physicalResourceId =
    event.RequestType === 'Create' ? `${event.LogicalResourceId}-cleanup` : event.PhysicalResourceId;
  await replyToCloudFormation(event, physicalResourceId, async () => {
    if (event.RequestType !== 'Delete') return;
    const done = await cleanUpFirstCreate(
      {
        stackId: event.StackId,
        buckets: (properties.Buckets as string[] | undefined) ?? [],
        ...(properties.TableName ? { tableName: String(properties.TableName) } : {}),
      },
      {
        cloudFormation: new CloudFormationClient({}),
        s3: new S3Client({}),
        dynamoDb: new DynamoDBClient({}),
      },
    );
    console.log(JSON.stringify({ requestType: event.RequestType, done }));
  });
}
