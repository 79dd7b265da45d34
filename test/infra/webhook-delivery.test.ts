import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';

import { SCHEDULER_SCHEDULE, WEBHOOK_QUEUE } from '../../functions/domain/scheduling/scheduling-settings';
import { WebhookDelivery } from '../../lib/constructs/webhook-delivery';
import { createTestApp, TEST_ENV } from './support';

/** The scheduling and delivery construct on its own, over a table (issue 4, item 8). */
describe('WebhookDelivery', () => {
  let template: Template;
  let stack: Stack;
  let delivery: WebhookDelivery;

  beforeAll(() => {
    stack = new Stack(createTestApp(), 'Delivery', { env: TEST_ENV });
    delivery = new WebhookDelivery(stack, 'WebhookDelivery');
    template = Template.fromStack(stack);
  });

  const idOf = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as never);

  it('runs the tick every minute, with a retry policy and a dead-letter queue', () => {
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Target: {
        // The live alias: a rollback moves what the schedule invokes.
        Arn: { Ref: idOf(delivery.tick.live) },
        RetryPolicy: {
          MaximumRetryAttempts: SCHEDULER_SCHEDULE.maximumRetryAttempts,
          MaximumEventAgeInSeconds: SCHEDULER_SCHEDULE.maximumEventAgeSeconds,
        },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [idOf(delivery.scheduleDeadLetterQueue), 'Arn'] } },
      },
    });
  });

  it('gives the webhook queue six times the worker time-out and a dead-letter queue after 5 receives', () => {
    expect(WEBHOOK_QUEUE.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(
      6 * WEBHOOK_QUEUE.workerTimeoutSeconds,
    );
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: WEBHOOK_QUEUE.visibilityTimeoutSeconds,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [idOf(delivery.deadLetterQueue), 'Arn'] },
        maxReceiveCount: 5,
      },
      SqsManagedSseEnabled: true,
    });
    // Its grants and variables come from its declaration (test/infra/needs.test.ts).
    template.hasResourceProperties('AWS::Lambda::Function', { Timeout: WEBHOOK_QUEUE.workerTimeoutSeconds });
  });

  it('feeds the worker its batches, at the global cap (the per-firm cap is the worker’s), with partial batch failures', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([':live'])]) }),
      BatchSize: WEBHOOK_QUEUE.batchSize,
      ScalingConfig: { MaximumConcurrency: WEBHOOK_QUEUE.maxConcurrency },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it("raises an alarm as soon as a dead-letter queue or the tick's on-failure queue holds a message", () => {
    const alarms = template.findResources('AWS::CloudWatch::Alarm');
    const queues = [delivery.deadLetterQueue, delivery.scheduleDeadLetterQueue, delivery.tickFailures];
    expect(Object.keys(alarms)).toHaveLength(queues.length);
    for (const alarm of Object.values(alarms)) {
      expect(alarm.Properties).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
    const watched = Object.values(alarms).map((alarm) => JSON.stringify(alarm.Properties.Dimensions));
    for (const queue of queues) {
      expect(watched.filter((dimensions) => dimensions.includes(idOf(queue)))).toHaveLength(1);
    }
  });

  it('scopes every SQS and Secrets Manager permission to its own resources', () => {
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
      for (const statement of policy.Properties.PolicyDocument.Statement as {
        Action: string | string[];
        Resource: unknown;
      }[]) {
        const actions = [statement.Action].flat();
        if (actions.some((action) => action.startsWith('sqs:') || action.startsWith('secretsmanager:'))) {
          expect(JSON.stringify(statement.Resource)).not.toBe('"*"');
        }
      }
    }
  });
});
