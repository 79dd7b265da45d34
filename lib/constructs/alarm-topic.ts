import { ArnFormat, Stack } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

export interface AlarmTopicProps {
  /**
   * An address that receives every alarm by e-mail (AWS sends it a confirmation link first).
   * @default - no subscription: subscribe to the topic (stack output `AlarmTopicArn`) by hand
   */
  readonly email?: string;
}

/** A deliberately loose check: the address is only handed to SNS, which sends it a confirmation. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Where the alarms go: one SNS topic, e-mailed. Its policy is written whole: TLS only, and
 * CloudWatch may publish for this account's alarms only (the confused-deputy conditions).
 */
export class AlarmTopic extends Construct {
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps = {}) {
    super(scope, id);
    if (props.email !== undefined && !EMAIL.test(props.email)) {
      throw new Error(`AlarmTopic: email must be an e-mail address (got "${props.email}")`);
    }
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: 'Alertes de l’assistant juridique',
      enforceSSL: true,
    });
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    NagSuppressions.addResourceSuppressions(this.topic, [
      {
        id: 'AwsSolutions-SNS2',
        reason:
          'Alarm notifications carry only the alarm name, description, state and metric, no customer ' +
          'data; and CloudWatch cannot publish to a topic under the AWS-managed SNS key.',
      },
    ]);
    if (props.email) {
      const subscription = this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));
      NagSuppressions.addResourceSuppressions(subscription, [
        {
          id: 'Serverless-SNSRedrivePolicy',
          reason:
            'An e-mail alarm SNS cannot deliver is not lost: the alarm itself stays in the ALARM ' +
            'state in CloudWatch, and so does the dead-letter queue it watches.',
        },
      ]);
    }
  }

  /** Sends each alarm to the topic when it goes off. */
  notify(...alarms: readonly cloudwatch.AlarmBase[]): void {
    const action = new cloudwatchActions.SnsAction(this.topic);
    for (const alarm of alarms) alarm.addAlarmAction(action);
  }

  get topicArn(): string {
    return this.topic.topicArn;
  }
}
