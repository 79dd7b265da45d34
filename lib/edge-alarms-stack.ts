import { CrossStackReferences, Duration, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';

import { AlarmTopic } from './constructs/alarm-topic';
import { EDGE_REGION } from './edge-stack';
import type { StageSettings } from './settings';

/** CloudFront 5xx replies, in % of requests over 5 minutes, counted once at least 10 requests came. */
export const CLOUDFRONT_THRESHOLDS = { errorPercent: 5, minimumRequests: 10, periods: 3 } as const;

export interface EdgeAlarmsStackProps extends StackProps {
  readonly settings: StageSettings;
  /** The stage's distribution (a cross-region reference from its stack). */
  readonly distributionId: string;
}

/**
 * The stage's alarms on CloudFront, whose metrics exist in us-east-1 only, with a topic of their
 * own there (an alarm can only notify a topic of its region). Deployed after the stage's stack.
 */
export class AssistantJuridiqueEdgeAlarmsStack extends Stack {
  readonly topic: AlarmTopic;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: EdgeAlarmsStackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    if (this.region !== EDGE_REGION) {
      throw new Error(
        `AssistantJuridiqueEdgeAlarmsStack: must be deployed in ${EDGE_REGION} (got ${this.region})`,
      );
    }
    // Weak: a dynamic reference alone, no reader custom resource; redeploy after the distribution changes.
    CrossStackReferences.of(this).consume(ReferenceStrength.WEAK);
    this.topic = new AlarmTopic(this, 'Alarms', { email: props.settings.alarmEmail });
    const metric = (metricName: string, statistic: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/CloudFront',
        metricName,
        dimensionsMap: { DistributionId: props.distributionId, Region: 'Global' },
        period: Duration.minutes(5),
        statistic,
      });
    const id5xx = 'CloudFront5xxRate';
    const alarm = new cloudwatch.Alarm(this, id5xx, {
      alarmName: `${props.settings.stackName}-Edge-${id5xx}`,
      alarmDescription:
        `Plus de ${CLOUDFRONT_THRESHOLDS.errorPercent} % des requêtes du site reçoivent une erreur 5xx de CloudFront ` +
        `depuis ${CLOUDFRONT_THRESHOLDS.periods * 5} minutes. Que faire : docs/operations.md, alarme ${id5xx}.`,
      metric: new cloudwatch.MathExpression({
        expression: `IF(requests >= ${CLOUDFRONT_THRESHOLDS.minimumRequests}, rate, 0)`,
        usingMetrics: { requests: metric('Requests', 'Sum'), rate: metric('5xxErrorRate', 'Average') },
        label: 'Erreurs 5xx CloudFront (%)',
        period: Duration.minutes(5),
      }),
      threshold: CLOUDFRONT_THRESHOLDS.errorPercent,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: CLOUDFRONT_THRESHOLDS.periods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.topic.notify(alarm);
    this.alarms.push(alarm);
  }
}
