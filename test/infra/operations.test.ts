import type { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { METRIC, METRICS_SERVICE, REPORT_METRIC } from '../../functions/domain/core/metrics';
import { POWERTOOLS_LAYER_PARAMETER, POWERTOOLS_VERSION } from '../../lib/constructs/bundling';
import { interactiveRoutes, THRESHOLDS } from '../../lib/constructs/monitoring';
import { DEFAULT_KEYS_REPLICA_REGION } from '../../lib/settings';
import { handlerNames, ROUTES, routeKey } from '../../shared/routes';
import { createSiteFixture, createTestStack, PROD_CONTEXT, settingsFrom, TEST_ENV } from './support';

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };

/** Issue 12: stages, alarms that reach someone, the dashboard, keys and backups. */
describe('operations', () => {
  let prod: Stack;
  let prodTemplate: Template;
  let dev: Stack;
  let devTemplate: Template;
  let removeSite: () => Promise<void>;
  let siteDir: string;

  beforeAll(async () => {
    const site = await createSiteFixture();
    removeSite = site.remove;
    siteDir = site.dir;
    // Templates only: the functions' bundles are not looked at here.
    prod = createTestStack(site.dir);
    prodTemplate = Template.fromStack(prod);
    dev = createTestStack(site.dir, {
      settings: settingsFrom({ mailFrom: 'licences@cabinet.example' }),
    });
    devTemplate = Template.fromStack(dev);
  });

  afterAll(async () => {
    await removeSite();
  });

  const resourcesOf = (template: Template, type: string) =>
    Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(
      ([, r]) => r.Type === type,
    );
  const alarmsOf = (template: Template) => resourcesOf(template, 'AWS::CloudWatch::Alarm');
  const topicId = (template: Template) => resourcesOf(template, 'AWS::SNS::Topic')[0]![0];
  /** The alarm whose name ends with `-<id>`. */
  const alarmNamed = (template: Template, stack: Stack, id: string) => {
    const found = alarmsOf(template).filter(([, alarm]) =>
      String(stack.resolve(alarm.Properties.AlarmName)).endsWith(`-${id}`),
    );
    expect(
      found.map(([logicalId]) => logicalId),
      id,
    ).toHaveLength(1);
    return found[0]![1].Properties;
  };

  describe('stage settings', () => {
    it('deploys dev by default, as AssistantJuridique-dev in eu-west-3', () => {
      const settings = settingsFrom({ mailFrom: 'a@b.example' });
      expect(settings).toMatchObject({
        stage: 'dev',
        stackName: 'AssistantJuridique-dev',
        region: 'eu-west-3',
      });
      expect(dev.stackName).toBe('AssistantJuridique-dev');
      expect(prod.stackName).toBe('AssistantJuridique-prod');
    });

    it('takes another region from -c region', () => {
      expect(settingsFrom({ mailFrom: 'a@b.example', region: 'eu-west-1' }).region).toBe('eu-west-1');
    });

    it('refuses to synthesize without a sender, naming the flag', () => {
      expect(() => settingsFrom({})).toThrow(/-c mailFrom=<address> is required/);
    });

    it('refuses prod without an alarm address, naming the flag', () => {
      expect(() => settingsFrom({ stage: 'prod', mailFrom: 'a@b.example' })).toThrow(
        /-c alarmEmail=<address> is required for prod/,
      );
    });

    it('names every wrong value at once', () => {
      expect(() =>
        settingsFrom({ stage: 'staging', mailFrom: 'Cabinet <a@b.example>', region: 'paris', waf: 'yes' }),
      ).toThrow(
        /stage must be one of dev, prod[\s\S]*region must be[\s\S]*mailFrom must be a bare[\s\S]*waf must be/,
      );
    });

    it('keeps prod data when the stack goes, and lets a dev stage be destroyed', () => {
      prodTemplate.hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: 'RetainExceptOnCreate',
        Properties: Match.objectLike({
          DeletionProtectionEnabled: true,
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        }),
      });
      devTemplate.hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: 'Delete',
        Properties: Match.objectLike({
          DeletionProtectionEnabled: false,
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        }),
      });
      for (const [id, secret] of resourcesOf(prodTemplate, 'AWS::SecretsManager::Secret')) {
        // Only CloudFront's origin secret is regenerated with the stack; the firms copy the
        // webhook signing secret into n8n, so it is kept with the keys and Stripe's.
        expect(secret.DeletionPolicy, id).toBe(
          id.startsWith('OriginVerify') ? 'Delete' : 'RetainExceptOnCreate',
        );
      }
      for (const [, secret] of resourcesOf(devTemplate, 'AWS::SecretsManager::Secret')) {
        expect(secret.DeletionPolicy).toBe('Delete');
      }
    });

    it('keeps logs 30 days in prod (spec §9, /privacy) and one week in dev', () => {
      const retentions = (template: Template) =>
        new Set(
          resourcesOf(template, 'AWS::Logs::LogGroup').map(([, group]) => group.Properties.RetentionInDays),
        );
      expect(retentions(prodTemplate)).toEqual(new Set([30]));
      expect(retentions(devTemplate)).toEqual(new Set([7]));
    });

    it('throttles the API per route, with sign-in, the portal link, checkout and the Stripe webhook on limits of their own', () => {
      const signIn = [
        ROUTES.verifyLicense,
        ROUTES.passkeyAuthenticationOptions,
        ROUTES.verifySecondFactor,
      ].map(routeKey);
      const below = [ROUTES.requestPortalLink, ROUTES.createCheckout, ROUTES.stripeWebhook].map(routeKey);
      const own = [...signIn, ...below];
      for (const [template, defaults] of [
        [prodTemplate, { rate: 50, burst: 100 }],
        [devTemplate, { rate: 10, burst: 20 }],
      ] as const) {
        const stage = resourcesOf(template, 'AWS::ApiGatewayV2::Stage')[0]![1].Properties as {
          DefaultRouteSettings: { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };
          RouteSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
        };
        expect(stage.DefaultRouteSettings).toMatchObject({
          ThrottlingRateLimit: defaults.rate,
          ThrottlingBurstLimit: defaults.burst,
        });
        for (const key of below) {
          expect(stage.RouteSettings[key]!.ThrottlingRateLimit).toBeLessThan(defaults.rate);
        }
        // Sign-in is sized for every firm's morning at once (sign-in-capacity.test.ts), each of its
        // calls on one limit.
        const signInLimits = signIn.map((key) => {
          const { ThrottlingRateLimit, ThrottlingBurstLimit } = stage.RouteSettings[key]!;
          return JSON.stringify({ ThrottlingRateLimit, ThrottlingBurstLimit });
        });
        expect(new Set(signInLimits).size).toBe(1);
        // Every other route with settings of its own (its detailed metrics) keeps the default throttle.
        for (const [key, settings] of Object.entries(stage.RouteSettings)) {
          if (own.includes(key)) continue;
          expect(settings, key).toMatchObject({
            ThrottlingRateLimit: defaults.rate,
            ThrottlingBurstLimit: defaults.burst,
          });
        }
      }
    });

    it('keeps a replica of the server keys in a second region in prod only', () => {
      prodTemplate.hasResourceProperties('AWS::SecretsManager::Secret', {
        ReplicaRegions: [{ Region: DEFAULT_KEYS_REPLICA_REGION }],
      });
      expect(JSON.stringify(devTemplate.toJSON())).not.toContain('ReplicaRegions');
      expect(settingsFrom({ ...PROD_CONTEXT, keysReplicaRegion: 'none' }).keysReplicaRegion).toBeUndefined();
      expect(() => settingsFrom({ ...PROD_CONTEXT, keysReplicaRegion: TEST_ENV.region })).toThrow(
        /must differ from the stack's region/,
      );
    });

    it('gives every function its stage’s metrics namespace and log level', () => {
      for (const [template, namespace, level] of [
        [prodTemplate, 'AssistantJuridique-prod', 'INFO'],
        [devTemplate, 'AssistantJuridique-dev', 'DEBUG'],
      ] as const) {
        // Ours, not CDK's BucketDeployment function (Python).
        const ours = resourcesOf(template, 'AWS::Lambda::Function').filter(
          ([, fn]) => fn.Properties.Runtime === 'nodejs22.x',
        );
        expect(ours.length).toBe(handlerNames().length + 9); // + app keys, cleanup, tick, claimer, worker, purge, undelivered mail, portal-link sender, builder
        for (const [id, fn] of ours) {
          expect(fn.Properties.Environment, id).toMatchObject({
            Variables: {
              POWERTOOLS_METRICS_NAMESPACE: namespace,
              POWERTOOLS_SERVICE_NAME: METRICS_SERVICE,
              POWERTOOLS_LOG_LEVEL: level,
            },
          });
        }
      }
    });
  });

  it('gives every function the official Powertools layer of the installed version, resolved at deployment', () => {
    const parameters = Object.entries(
      prodTemplate.toJSON().Parameters as Record<string, { Type: string; Default: string }>,
    ).filter(([, p]) => p.Default === POWERTOOLS_LAYER_PARAMETER);
    expect(parameters).toHaveLength(1);
    const [parameterId, parameter] = parameters[0]!;
    expect(parameter.Type).toBe('AWS::SSM::Parameter::Value<String>');
    expect(POWERTOOLS_LAYER_PARAMETER).toBe(
      `/aws/service/powertools/typescript/generic/all/${POWERTOOLS_VERSION}`,
    );
    const ours = resourcesOf(prodTemplate, 'AWS::Lambda::Function').filter(
      ([, fn]) => fn.Properties.Runtime === 'nodejs22.x',
    );
    expect(ours.length).toBe(handlerNames().length + 9); // + app keys, cleanup, tick, claimer, worker, purge, undelivered mail, portal-link sender, builder
    for (const [id, fn] of ours) expect(fn.Properties.Layers, id).toEqual([{ Ref: parameterId }]);
  });

  describe('alarm topic', () => {
    it('lets CloudWatch publish for this account’s alarms, and still refuses anything but TLS', () => {
      prodTemplate.hasResourceProperties('AWS::SNS::TopicPolicy', {
        Topics: [{ Ref: topicId(prodTemplate) }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 'sns:Publish',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
            Match.objectLike({
              Effect: 'Allow',
              Principal: { Service: 'cloudwatch.amazonaws.com' },
              Action: 'sns:Publish',
              Condition: Match.objectLike({ StringEquals: { 'aws:SourceAccount': TEST_ENV.account } }),
            }),
          ]),
        },
      });
    });

    it('sends every alarm to the topic, which prod subscribes the alarm address to', () => {
      prodTemplate.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'email',
        Endpoint: PROD_CONTEXT.alarmEmail,
        TopicArn: { Ref: topicId(prodTemplate) },
      });
      devTemplate.resourceCountIs('AWS::SNS::Subscription', 0);
      for (const [id, alarm] of alarmsOf(prodTemplate)) {
        expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId(prodTemplate) }]);
      }
    });
  });

  describe('alarms', () => {
    const watched = [...handlerNames(), 'Worker', 'Tick', 'Purge'];

    it.each(watched)('watches the errors and throttles of %s', (name) => {
      for (const metric of ['Errors', 'Throttles']) {
        expect(alarmNamed(prodTemplate, prod, `${name}-${metric}`)).toMatchObject({
          Namespace: 'AWS/Lambda',
          MetricName: metric,
          Statistic: 'Sum',
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        });
      }
    });

    it('raises the heartbeat when no tick completed for five minutes, missing data included', () => {
      expect(alarmNamed(prodTemplate, prod, 'TickHeartbeat')).toMatchObject({
        Namespace: 'AssistantJuridique-prod',
        MetricName: METRIC.tickCompleted,
        Dimensions: [{ Name: 'service', Value: METRICS_SERVICE }],
        Period: 60,
        EvaluationPeriods: THRESHOLDS.tickHeartbeatMinutes,
        Threshold: 1,
        ComparisonOperator: 'LessThanThreshold',
        TreatMissingData: 'breaching',
      });
    });

    it.each([
      ['StripeWebhookRejected', METRIC.stripeWebhookRejected, THRESHOLDS.stripeWebhookRejected, 900],
      ['EmailFailed', METRIC.emailFailed, 1, 300],
      ['SecretUnavailable', METRIC.secretUnavailable, 1, 300],
    ])('raises %s on the functions’ own metric', (id, metric, threshold, period) => {
      expect(alarmNamed(prodTemplate, prod, id)).toMatchObject({
        Namespace: 'AssistantJuridique-prod',
        MetricName: metric,
        Dimensions: [{ Name: 'service', Value: METRICS_SERVICE }],
        Statistic: 'Sum',
        Period: period,
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    });

    it('raises Api5xxRate on the share of 5xx replies, and ApiLatencyP99 on the p99 latency', () => {
      const rate = alarmNamed(prodTemplate, prod, 'Api5xxRate') as {
        Metrics: { Expression?: string; MetricStat?: { Metric: { MetricName: string } } }[];
        Threshold: number;
      };
      expect(rate.Threshold).toBe(THRESHOLDS.api5xxPercent);
      expect(rate.Metrics.find((m) => m.Expression)?.Expression).toBe(
        `IF(requests >= ${THRESHOLDS.api5xxMinimumRequests}, 100 * errors / requests, 0)`,
      );
      expect(
        rate.Metrics.flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric.MetricName] : [])).sort(),
      ).toEqual(['5xx', 'Count']);
      // At launch the rate stays silent: a count pages whatever the traffic.
      expect(alarmNamed(prodTemplate, prod, 'Api5xxCount')).toMatchObject({
        Namespace: 'AWS/ApiGateway',
        MetricName: '5xx',
        Statistic: 'Sum',
        Period: 300,
        Threshold: THRESHOLDS.api5xxCount,
      });
    });

    it('watches the p99 latency of each interactive route on its own, and of no call that waits by design', () => {
      const latency = alarmsOf(prodTemplate).filter(([, alarm]) =>
        String(prod.resolve(alarm.Properties.AlarmName)).includes('-ApiLatencyP99'),
      );
      const routes = interactiveRoutes();
      expect(latency).toHaveLength(routes.length);
      for (const [name, route] of routes) {
        expect(alarmNamed(prodTemplate, prod, `ApiLatencyP99-${name}`)).toMatchObject({
          Namespace: 'AWS/ApiGateway',
          MetricName: 'Latency',
          ExtendedStatistic: 'p99',
          Dimensions: expect.arrayContaining([
            { Name: 'Method', Value: route.method },
            { Name: 'Resource', Value: route.path },
          ]),
          EvaluationPeriods: 3,
          Threshold:
            route === ROUTES.verifyLicense
              ? THRESHOLDS.signInLatencyP99Ms
              : THRESHOLDS.interactiveLatencyP99Ms,
        });
      }
      for (const waits of [ROUTES.executeWebhook, ROUTES.testWorkflowConnection, ROUTES.workflowScheduler]) {
        expect(routes.map(([, route]) => route)).not.toContain(waits);
      }
      // The route metrics exist only where detailed metrics are on: on these routes.
      const stage = resourcesOf(prodTemplate, 'AWS::ApiGatewayV2::Stage')[0]![1].Properties as {
        RouteSettings: Record<string, { DetailedMetricsEnabled?: boolean }>;
      };
      const detailed = Object.entries(stage.RouteSettings).filter(
        ([, settings]) => settings.DetailedMetricsEnabled,
      );
      expect(detailed.map(([key]) => key).sort()).toEqual(routes.map(([, route]) => routeKey(route)).sort());
    });

    it('raises WebhookQueueOldestMessage at 5 minutes in prod, 2 hours in dev', () => {
      expect(alarmNamed(prodTemplate, prod, 'WebhookQueueOldestMessage')).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateAgeOfOldestMessage',
        Statistic: 'Maximum',
        Threshold: 5 * 60,
      });
      expect(alarmNamed(devTemplate, dev, 'WebhookQueueOldestMessage')).toMatchObject({
        Threshold: THRESHOLDS.webhookQueueOldestSeconds,
      });
    });

    it('pages on the claimers’ failure ratio over three periods, not on a single failed claimer', () => {
      expect(
        alarmsOf(prodTemplate).map(([, a]) => String(prod.resolve(a.Properties.AlarmName))),
      ).not.toContain('AssistantJuridique-prod-Monitoring-Claimer-Errors');
      const ratio = alarmNamed(prodTemplate, prod, 'ClaimerFailureRatio') as {
        Metrics: { Expression?: string; MetricStat?: { Metric: { MetricName: string } } }[];
      };
      expect(ratio).toMatchObject({
        Threshold: THRESHOLDS.claimerFailurePercent,
        EvaluationPeriods: THRESHOLDS.claimerFailurePeriods,
      });
      expect(THRESHOLDS.claimerFailurePeriods).toBeGreaterThan(1);
      expect(ratio.Metrics.find((m) => m.Expression)?.Expression).toContain('100 * errors / invocations');
      expect(
        ratio.Metrics.flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric.MetricName] : [])).sort(),
      ).toEqual(['Errors', 'Invocations']);
    });

    it('raises AccountConcurrency at 80 % of the quota the deployment read', () => {
      expect(alarmNamed(prodTemplate, prod, 'AccountConcurrency')).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'ClaimedAccountConcurrency',
        Statistic: 'Maximum',
        Threshold: 800,
      });
      const quota400 = createTestStack(siteDir, {
        settings: settingsFrom({ ...PROD_CONTEXT, lambdaConcurrencyQuota: '400' }),
      });
      const template = Template.fromStack(quota400);
      expect(alarmNamed(template, quota400, 'AccountConcurrency')).toMatchObject({ Threshold: 320 });
    });

    it.each([
      ['SesBounceRate', 'Reputation.BounceRate', THRESHOLDS.sesBounceRate],
      ['SesComplaintRate', 'Reputation.ComplaintRate', THRESHOLDS.sesComplaintRate],
    ])('raises %s on the account’s SES reputation', (id, metric, threshold) => {
      expect(alarmNamed(prodTemplate, prod, id)).toMatchObject({
        Namespace: 'AWS/SES',
        MetricName: metric,
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
      expect({ bounce: THRESHOLDS.sesBounceRate, complaint: THRESHOLDS.sesComplaintRate }).toEqual({
        bounce: 0.05,
        complaint: 0.001,
      });
    });

    it('raises DynamoDbThrottles on throttled requests of every operation the code makes', () => {
      const alarm = alarmNamed(prodTemplate, prod, 'DynamoDbThrottles') as {
        Metrics: {
          MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] } };
        }[];
        Threshold: number;
      };
      const operations = alarm.Metrics.flatMap((m) =>
        m.MetricStat ? [m.MetricStat.Metric.Dimensions.find((d) => d.Name === 'Operation')?.Value] : [],
      );
      expect(
        alarm.Metrics.filter((m) => m.MetricStat).every(
          (m) => m.MetricStat?.Metric.MetricName === 'ThrottledRequests',
        ),
      ).toBe(true);
      expect(operations).toEqual(
        expect.arrayContaining(['GetItem', 'Query', 'PutItem', 'UpdateItem', 'TransactWriteItems']),
      );
      expect(alarm.Threshold).toBe(THRESHOLDS.dynamoDbThrottledRequests);
    });

    it.each([
      ['WebhookDelivery-DeadLetterAlarm'],
      ['WebhookDelivery-ScheduleDeadLetterAlarm'],
      ['WebhookDelivery-TickFailuresAlarm'],
      ['DataRetention-ScheduleDeadLetterAlarm'],
      ['DataRetention-FailedRunsAlarm'],
    ])('raises %s at the first dead letter, and sends it again while the queue is not empty', (id) => {
      const alarm = alarmNamed(prodTemplate, prod, id);
      expect(alarm).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
      });
      // No OK action: the periodic reset to OK must not send an e-mail of its own.
      expect(alarm.OKActions).toBeUndefined();
      const alarmName = prod.resolve(alarm.AlarmName);
      const schedules = resourcesOf(prodTemplate, 'AWS::Scheduler::Schedule').filter(([, schedule]) =>
        JSON.stringify(prod.resolve(schedule.Properties.Target)).includes(String(alarmName)),
      );
      expect(schedules).toHaveLength(1);
      const { ScheduleExpression, Target } = schedules[0]![1].Properties as {
        ScheduleExpression: string;
        Target: { Arn: unknown; Input: string };
      };
      expect(ScheduleExpression).toBe('rate(6 hours)');
      expect(JSON.stringify(Target.Arn)).toContain(':scheduler:::aws-sdk:cloudwatch:setAlarmState');
      expect(JSON.parse(Target.Input)).toMatchObject({ AlarmName: alarmName, StateValue: 'OK' });
    });

    it('lets each reminder schedule reset its own alarm and nothing else', () => {
      const statements = resourcesOf(prodTemplate, 'AWS::IAM::Policy')
        .flatMap(
          ([, policy]) =>
            (policy.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] })
              .Statement,
        )
        .filter((statement) => JSON.stringify(statement.Action).includes('cloudwatch:SetAlarmState'));
      expect(statements.length).toBeGreaterThan(0);
      for (const statement of statements) expect(JSON.stringify(statement.Resource)).not.toContain('"*"');
    });

    it('keeps the tick’s failed invocations in an on-failure queue instead of dropping them', () => {
      prodTemplate.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        MaximumRetryAttempts: 0,
        DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      });
    });
  });

  it('draws every alarm on the dashboard, next to the business metrics', () => {
    const [, dashboard] = resourcesOf(prodTemplate, 'AWS::CloudWatch::Dashboard')[0]!;
    const body = JSON.stringify(prod.resolve(dashboard.Properties.DashboardBody));
    for (const [id] of alarmsOf(prodTemplate)) expect(body, id).toContain(id);
    for (const metric of [...Object.values(METRIC), ...Object.values(REPORT_METRIC)])
      expect(body, metric).toContain(metric);
  });
});
