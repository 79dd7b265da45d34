import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';

import { DataRetention, RETENTION_SCHEDULE } from '../../lib/constructs/data-retention';
import { createTestApp, TEST_ENV } from './support';

/** The retention construct on its own (issue 5: data purged 30 days after cancellation). */
describe('DataRetention', () => {
  let template: Template;
  let stack: Stack;
  let retention: DataRetention;

  beforeAll(() => {
    stack = new Stack(createTestApp(), 'Retention', { env: TEST_ENV });
    retention = new DataRetention(stack, 'DataRetention');
    template = Template.fromStack(stack);
  });

  const idOf = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId(construct.node.defaultChild as never);

  it('runs the purge every hour, with retries and a dead-letter queue under an alarm', () => {
    expect(RETENTION_SCHEDULE).toBe('rate(1 hour)');
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 hour)',
      Target: {
        Arn: { Ref: idOf(retention.purge.live) },
        RetryPolicy: { MaximumRetryAttempts: 2 },
        DeadLetterConfig: { Arn: Match.anyValue() },
      },
    });
  });

  it('keeps a purge that threw on every attempt in an on-failure queue, not dropped', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: idOf(retention.purge) },
      MaximumRetryAttempts: 2,
      DestinationConfig: {
        OnFailure: { Destination: { 'Fn::GetAtt': [idOf(retention.failedRuns), 'Arn'] } },
      },
    });
  });

  it('alarms as soon as the function’s or the schedule’s failure queue holds a message', () => {
    const schedulesQueue = stack.node.findChild('DataRetention').node.findChild('ScheduleDeadLetterQueue');
    for (const queue of [retention.failedRuns, schedulesQueue]) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [idOf(queue), 'QueueName'] } }],
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
  });
  // Its grants and variables come from its declaration: test/infra/needs.test.ts.
});
