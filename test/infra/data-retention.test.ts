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
        Arn: { 'Fn::GetAtt': [idOf(retention.purge), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 2 },
        DeadLetterConfig: { Arn: Match.anyValue() },
      },
    });
    expect(retention.alarms).toHaveLength(1);
    template.resourceCountIs('AWS::CloudWatch::Alarm', 1);
  });
  // Its grants and variables come from its declaration: test/infra/needs.test.ts.
});
