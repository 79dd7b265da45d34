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

/**
 * An alarm's name: the stack's (so two stages never mix in the console or an e-mail), the
 * construct's and the alarm's own id, e.g. `AssistantJuridique-prod-WebhookDelivery-DeadLetterAlarm`.
 */
export const alarmNameOf = (scope: Construct, id: string): string =>
  `${Stack.of(scope).stackName}-${scope.node.id}-${id}`;

/**
 * An alarm raised as soon as a dead-letter queue holds a message. It stays in ALARM while the
 * queue is not empty (SQS keeps reporting the depth of a queue that holds messages); the
 * monitoring construct sends it again periodically until someone empties the queue.
 */
export function deadLetterAlarm(scope: Construct, id: string, queue: sqs.IQueue, description: string) {
  return new cloudwatch.Alarm(scope, id, {
    alarmName: alarmNameOf(scope, id),
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
