import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

/** A queue encrypted at rest by SQS and refusing any request not made over TLS. */
export function secureQueue(scope: Construct, id: string, props: sqs.QueueProps): sqs.Queue {
  return new sqs.Queue(scope, id, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    ...props,
  });
}

/** A dead-letter queue kept 14 days: what lands there is watched by an alarm, not sent further. */
export function deadLetterQueue(scope: Construct, id: string, props: sqs.QueueProps = {}): sqs.Queue {
  const queue = secureQueue(scope, id, { retentionPeriod: Duration.days(14), ...props });
  const reason = 'This is a dead-letter queue: what fails here is watched by an alarm, not sent further.';
  NagSuppressions.addResourceSuppressions(queue, [
    { id: 'AwsSolutions-SQS3', reason },
    { id: 'Serverless-SQSRedrivePolicy', reason },
  ]);
  return queue;
}

/** An alarm raised as soon as a dead-letter queue holds a message. */
export function deadLetterAlarm(scope: Construct, id: string, queue: sqs.Queue, description: string) {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: description,
    metric: queue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(1),
      statistic: 'Maximum',
    }),
    threshold: 0,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/**
 * Our own execution role for an EventBridge Scheduler schedule, so that its permissions (invoke
 * its target, send to its DLQ) are ours to scope; only EventBridge Scheduler acting for this
 * account's default schedule group may assume it (confused-deputy conditions, as AWS documents).
 */
export function scheduleRole(scope: Construct, id: string, description: string): iam.Role {
  const stack = Stack.of(scope);
  return new iam.Role(scope, id, {
    assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
      conditions: {
        StringEquals: {
          'aws:SourceAccount': stack.account,
          'aws:SourceArn': stack.formatArn({
            service: 'scheduler',
            resource: 'schedule-group',
            resourceName: 'default',
          }),
        },
      },
    }),
    description,
  });
}
