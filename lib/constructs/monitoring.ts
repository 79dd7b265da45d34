import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';

import { METRIC, METRICS_SERVICE, type MetricName, REPORT_METRIC } from '../../functions/domain/core/metrics';
import { ROUTES, type RouteDefinition } from '../../shared/routes';
import { DEFAULT_LAMBDA_CONCURRENCY_QUOTA } from '../settings';
import { AlarmTopic } from './alarm-topic';
import type { Api } from './api';
import type { DataRetention } from './data-retention';
import type { DataTable } from './data-table';
import { alarmNameOf, scheduleRole } from './scheduled-parts';
import type { WebhookDelivery } from './webhook-delivery';

export interface MonitoringProps {
  readonly api: Api;
  readonly table: DataTable;
  readonly delivery: WebhookDelivery;
  readonly retention: DataRetention;
  /** Functions outside the API, the delivery and the retention (the mail events). */
  readonly otherFunctions?: readonly lambda.Function[];
  /** Dead-letter alarms of other constructs (the mail events' failed events), sent again like theirs. */
  readonly otherAlarms?: readonly cloudwatch.Alarm[];
  /**
   * The webhook queue's oldest message that raises its alarm, in seconds.
   * @default THRESHOLDS.webhookQueueOldestSeconds
   */
  readonly webhookQueueOldestSeconds?: number;
  /**
   * The account's Lambda concurrent-executions quota in the region.
   * @default DEFAULT_LAMBDA_CONCURRENCY_QUOTA
   */
  readonly lambdaConcurrencyQuota?: number;
  /**
   * Receives every alarm by e-mail (the stage settings require one in prod).
   * @default - no subscription
   */
  readonly alarmEmail?: string;
  /**
   * How often an alarm that stays in ALARM (dead letters still waiting) is sent again.
   * @default Duration.hours(6)
   */
  readonly renotifyEvery?: Duration;
}

/** Thresholds, in one place so that the runbook's table and the tests read the same numbers. */
export const THRESHOLDS = {
  /** API 5xx replies, in % of requests over 5 minutes, counted once at least 10 requests came. */
  api5xxPercent: 5,
  api5xxMinimumRequests: 10,
  /** API 5xx replies over 5 minutes, whatever the traffic: the rate says nothing at launch. */
  api5xxCount: 3,
  /** p99 latency of an interactive route in ms, three 5-minute periods in a row. */
  interactiveLatencyP99Ms: 2000,
  /** Sign-in's, which slows wrong keys down to 3 s on purpose. */
  signInLatencyP99Ms: 5000,
  /** Oldest message of the webhook queue, in seconds, when the stage does not say (dev). */
  webhookQueueOldestSeconds: 2 * 60 * 60,
  /** DynamoDB requests throttled over 5 minutes (the SDK retries a few; more means a hot key). */
  dynamoDbThrottledRequests: 5,
  /** Stripe webhook deliveries refused over 15 minutes (Stripe retries, a wrong secret refuses all). */
  stripeWebhookRejected: 3,
  /** Minutes without a completed tick before the heartbeat alarm. */
  tickHeartbeatMinutes: 5,
  /** Failed claimer invocations, in %, over each of three 5-minute periods: one failure is noise. */
  claimerFailurePercent: 10,
  claimerFailurePeriods: 3,
  /** The account's claimed Lambda concurrency, in % of its quota, two 5-minute periods in a row. */
  accountConcurrencyPercent: 80,
  /** SES reputation: the rates at which SES itself starts reviewing an account are 10 % and 0.5 %. */
  sesBounceRate: 0.05,
  sesComplaintRate: 0.001,
} as const;

/** Routes a person waits on, whose latency is watched one by one: every read, and signing in. */
export const interactiveRoutes = (): readonly [string, RouteDefinition][] =>
  Object.entries(ROUTES as Readonly<Record<string, RouteDefinition>>).filter(
    ([, route]) => route.method === 'GET' || route === ROUTES.verifyLicense,
  );

/**
 * An alarm on every failure a customer would otherwise find first, e-mailed, and a dashboard. An
 * alarm e-mails once: the dead-letter ones are reset to OK every `renotifyEvery` (SetAlarmState)
 * so that a queue still holding messages alarms, and e-mails, again a minute later.
 */
export class Monitoring extends Construct {
  readonly topic: AlarmTopic;
  /** Every alarm, by its owner's id and its own (`WebhookDelivery-DeadLetterAlarm`, `Monitoring-TickHeartbeat`). */
  readonly alarms = new Map<string, cloudwatch.Alarm>();
  readonly dashboard: cloudwatch.Dashboard;
  private readonly namespace: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api, table, delivery, retention } = props;
    this.namespace = Stack.of(this).stackName;
    this.topic = new AlarmTopic(this, 'Alarms', { email: props.alarmEmail });

    // Dead letters: raised by the constructs that own the queues, sent again until emptied.
    const persisting = [...delivery.alarms, ...retention.alarms, ...api.alarms, ...(props.otherAlarms ?? [])];
    for (const alarm of persisting) this.alarms.set(ownedId(alarm), alarm);

    const functions: readonly lambda.Function[] = [
      ...api.allFunctions,
      delivery.worker,
      delivery.tick,
      delivery.claimer,
      retention.purge,
      ...(props.otherFunctions ?? []),
    ];
    for (const fn of functions) {
      const name = fn.node.id;
      this.alarm(`${name}-Throttles`, {
        description: `Des appels de la fonction ${name} ont été refusés faute de concurrence Lambda.`,
        metric: fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
      });
      // 92,160 claimer runs a day: a lone failure is retried and noise; a share that lasts is not.
      if (fn === delivery.claimer) continue;
      this.alarm(`${name}-Errors`, {
        description: `La fonction ${name} a échoué (exception non gérée, délai dépassé ou plantage).`,
        metric: fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
      });
    }
    this.alarm('ClaimerFailureRatio', {
      description:
        `Plus de ${THRESHOLDS.claimerFailurePercent} % des lots du planificateur échouent depuis ` +
        `${THRESHOLDS.claimerFailurePeriods * 5} minutes : des automatisations dues ne partent pas.`,
      metric: new cloudwatch.MathExpression({
        expression: 'IF(invocations > 0, 100 * errors / invocations, 0)',
        usingMetrics: {
          invocations: delivery.claimer.metricInvocations({ period: Duration.minutes(5), statistic: 'Sum' }),
          errors: delivery.claimer.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        },
        label: 'Lots en échec (%)',
        period: Duration.minutes(5),
      }),
      threshold: THRESHOLDS.claimerFailurePercent,
      evaluationPeriods: THRESHOLDS.claimerFailurePeriods,
    });

    const quota = props.lambdaConcurrencyQuota ?? DEFAULT_LAMBDA_CONCURRENCY_QUOTA;
    this.alarm('AccountConcurrency', {
      description:
        `La concurrence Lambda du compte dépasse ${THRESHOLDS.accountConcurrencyPercent} % de son quota ` +
        `(${quota}) : au-delà, les appels de toutes les fonctions du compte sont refusés.`,
      metric: new cloudwatch.Metric({
        namespace: 'AWS/Lambda',
        metricName: 'ClaimedAccountConcurrency',
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      threshold: Math.floor((quota * THRESHOLDS.accountConcurrencyPercent) / 100),
      evaluationPeriods: 2,
    });

    this.alarm('TickHeartbeat', {
      description:
        `Aucun passage du planificateur n’a abouti depuis ${THRESHOLDS.tickHeartbeatMinutes} minutes : ` +
        'les automatisations dues ne partent plus.',
      metric: this.metric(METRIC.tickCompleted, Duration.minutes(1)),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: THRESHOLDS.tickHeartbeatMinutes,
      // No data is the very symptom: a tick that never runs records nothing.
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });

    const requests = api.httpApi.metricCount({ period: Duration.minutes(5), statistic: 'Sum' });
    const serverErrors = api.httpApi.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' });
    this.alarm('Api5xxRate', {
      description: `Plus de ${THRESHOLDS.api5xxPercent} % des requêtes de l’API ont reçu une erreur 5xx.`,
      metric: new cloudwatch.MathExpression({
        expression: `IF(requests >= ${THRESHOLDS.api5xxMinimumRequests}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        label: 'Erreurs 5xx (%)',
        period: Duration.minutes(5),
      }),
      threshold: THRESHOLDS.api5xxPercent,
    });
    this.alarm('ApiHandledServerErrors', {
      description:
        'Un appel de l’API a répondu 500 sur une erreur inattendue que le gestionnaire a interceptée ' +
        '(la fonction n’a pas échoué pour Lambda).',
      metric: this.metric(METRIC.handledServerError, Duration.minutes(5)),
      threshold: 1,
    });
    this.alarm('Api5xxCount', {
      description: `L’API a répondu au moins ${THRESHOLDS.api5xxCount} erreurs 5xx en 5 minutes.`,
      metric: serverErrors,
      threshold: THRESHOLDS.api5xxCount,
    });
    // Per route: calls that wait on n8n or Stripe by design would hide a slow page in one p99.
    for (const [name, route] of interactiveRoutes()) {
      const threshold =
        route === ROUTES.verifyLicense ? THRESHOLDS.signInLatencyP99Ms : THRESHOLDS.interactiveLatencyP99Ms;
      this.alarm(`ApiLatencyP99-${name}`, {
        description: `Le p99 du temps de réponse de ${route.method} ${route.path} dépasse ${threshold} ms depuis 15 minutes.`,
        metric: new cloudwatch.Metric({
          namespace: 'AWS/ApiGateway',
          metricName: 'Latency',
          dimensionsMap: {
            ApiId: api.httpApi.apiId,
            Stage: '$default',
            Method: route.method,
            Resource: route.path,
          },
          period: Duration.minutes(5),
          statistic: 'p99',
        }),
        threshold,
        evaluationPeriods: 3,
      });
    }

    const oldest = props.webhookQueueOldestSeconds ?? THRESHOLDS.webhookQueueOldestSeconds;
    this.alarm('WebhookQueueOldestMessage', {
      description:
        `Un appel de webhook attend dans la file depuis plus de ${oldest / 60} minutes : le worker ne ` +
        'suit plus ou ne tourne plus (la file garde 4 jours, puis les messages disparaissent).',
      metric: delivery.queue.metricApproximateAgeOfOldestMessage({
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      threshold: oldest,
    });

    this.alarm('DynamoDbThrottles', {
      description: 'Des requêtes à la table DynamoDB sont refusées pour dépassement de débit.',
      metric: table.table.metricThrottledRequestsForOperations({
        operations: [
          dynamodb.Operation.GET_ITEM,
          dynamodb.Operation.BATCH_GET_ITEM,
          dynamodb.Operation.QUERY,
          dynamodb.Operation.PUT_ITEM,
          dynamodb.Operation.UPDATE_ITEM,
          dynamodb.Operation.DELETE_ITEM,
          dynamodb.Operation.BATCH_WRITE_ITEM,
          dynamodb.Operation.TRANSACT_WRITE_ITEMS,
        ],
        period: Duration.minutes(5),
      }),
      threshold: THRESHOLDS.dynamoDbThrottledRequests,
    });

    this.alarm('StripeWebhookRejected', {
      description:
        'Des webhooks Stripe sont refusés (signature absente ou fausse) : secret whsec_ erroné ou envoi ' +
        'qui ne vient pas de Stripe. Les licences payées ne sont plus émises.',
      metric: this.metric(METRIC.stripeWebhookRejected, Duration.minutes(15)),
      threshold: THRESHOLDS.stripeWebhookRejected,
    });
    this.alarm('EmailFailed', {
      description:
        'SES a refusé d’envoyer un e-mail (clé de licence ou confirmation de résiliation) : un cabinet ' +
        'qui a payé peut ne pas avoir reçu sa clé.',
      metric: this.metric(METRIC.emailFailed, Duration.minutes(5)),
      threshold: 1,
    });
    this.alarm('SecretUnavailable', {
      description:
        'Un secret est illisible ou vide (clés Stripe non renseignées, accès refusé, Secrets Manager ' +
        'indisponible) : les appels qui en dépendent échouent.',
      metric: this.metric(METRIC.secretUnavailable, Duration.minutes(5)),
      threshold: 1,
    });
    this.alarm('DataExportFailed', {
      description:
        "L'export des données d'un cabinet a échoué (« Exporter mes données ») : le cabinet est invité " +
        'à relancer ; voir les journaux de la fonction de construction des exports.',
      metric: this.metric(REPORT_METRIC.exportFailed, Duration.minutes(15)),
      threshold: 1,
    });

    this.alarm('SesBounceRate', {
      description:
        `Le taux de rebond SES du compte atteint ${THRESHOLDS.sesBounceRate * 100} % : à 10 %, SES peut ` +
        'suspendre l’envoi de toutes les clés de licence.',
      metric: sesReputation('Reputation.BounceRate'),
      threshold: THRESHOLDS.sesBounceRate,
    });
    this.alarm('SesComplaintRate', {
      description:
        `Le taux de plaintes SES du compte atteint ${THRESHOLDS.sesComplaintRate * 100} % : à 0,5 %, SES ` +
        'peut suspendre l’envoi de toutes les clés de licence.',
      metric: sesReputation('Reputation.ComplaintRate'),
      threshold: THRESHOLDS.sesComplaintRate,
    });
    this.alarm('StoreUnavailable', {
      description:
        'Des appels répondent 503 : DynamoDB injoignable, limité ou trop lent après les nouvelles ' +
        'tentatives. Les utilisateurs voient « Service momentanément indisponible ».',
      metric: this.metric(METRIC.storeUnavailable, Duration.minutes(5)),
      threshold: 5,
    });

    for (const alarm of this.alarms.values()) this.topic.notify(alarm);
    this.renotify(persisting, props.renotifyEvery ?? Duration.hours(6));
    this.dashboard = this.buildDashboard(props);
  }

  /** A business or failure metric the functions record (`functions/domain/core/metrics.ts`). */
  metric(name: MetricName, period: Duration, statistic = 'Sum'): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: this.namespace,
      metricName: name,
      dimensionsMap: { service: METRICS_SERVICE },
      period,
      statistic,
    });
  }

  private alarm(
    id: string,
    options: {
      readonly description: string;
      readonly metric: cloudwatch.IMetric;
      readonly threshold: number;
      readonly comparisonOperator?: cloudwatch.ComparisonOperator;
      readonly evaluationPeriods?: number;
      readonly treatMissingData?: cloudwatch.TreatMissingData;
    },
  ): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmName: alarmNameOf(this, id),
      alarmDescription: `${options.description} Que faire : docs/operations.md, alarme ${id}.`,
      metric: options.metric,
      threshold: options.threshold,
      comparisonOperator:
        options.comparisonOperator ?? cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: options.evaluationPeriods ?? 1,
      // Most metrics exist only when something happened: no data means nothing went wrong.
      treatMissingData: options.treatMissingData ?? cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.alarms.set(ownedId(alarm), alarm);
    return alarm;
  }

  private renotify(alarms: readonly cloudwatch.Alarm[], every: Duration): void {
    const role = scheduleRole(this, 'RenotifyRole', "Rôle des rappels d'alarme : remettre les alarmes à OK");
    for (const alarm of alarms) {
      new scheduler.Schedule(this, `Renotify-${ownedId(alarm)}`, {
        description: `Renvoie l’alarme ${ownedId(alarm)} tant que sa condition dure`,
        schedule: scheduler.ScheduleExpression.rate(every),
        target: new targets.Universal({
          service: 'cloudwatch',
          action: 'setAlarmState',
          role,
          input: scheduler.ScheduleTargetInput.fromObject({
            // The literal name (the alarm's `alarmName` is a Ref, which would reach the schedule as is).
            AlarmName: (alarm.node.defaultChild as cloudwatch.CfnAlarm).alarmName,
            StateValue: 'OK',
            StateReason: 'Remise à OK périodique : l’alarme repartira si des messages attendent toujours.',
          }),
          // This alarm only (the target's default would be every alarm, "*").
          policyStatements: [
            new iam.PolicyStatement({ actions: ['cloudwatch:SetAlarmState'], resources: [alarm.alarmArn] }),
          ],
        }),
      });
    }
  }

  private buildDashboard(props: MonitoringProps): cloudwatch.Dashboard {
    const { api, delivery, table } = props;
    const five = Duration.minutes(5);
    const graph = (title: string, left: cloudwatch.IMetric[], width = 8) =>
      new cloudwatch.GraphWidget({ title, left, width, height: 6 });
    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${this.namespace}-operations`,
      defaultInterval: Duration.hours(24),
    });
    dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({
        title: 'Alarmes',
        alarms: [...this.alarms.values()],
        width: 24,
        height: 8,
        sortBy: cloudwatch.AlarmStatusWidgetSortBy.STATE_UPDATED_TIMESTAMP,
      }),
    );
    dashboard.addWidgets(
      graph('API : requêtes et erreurs 5xx', [
        api.httpApi.metricCount({ period: five, statistic: 'Sum' }),
        api.httpApi.metricServerError({ period: five, statistic: 'Sum' }),
        api.httpApi.metricClientError({ period: five, statistic: 'Sum' }),
      ]),
      graph('API : latence p50 / p99 (ms)', [
        api.httpApi.metricLatency({ period: five, statistic: 'p50' }),
        api.httpApi.metricLatency({ period: five, statistic: 'p99' }),
      ]),
      graph('Connexions : clés refusées, clients ralentis', [
        this.metric(METRIC.signInFailed, five),
        this.metric(METRIC.signInThrottled, five),
      ]),
    );
    dashboard.addWidgets(
      graph('Planificateur : passages, dus, réservés, envoyés, lots non traités', [
        this.metric(METRIC.tickCompleted, five),
        this.metric(METRIC.dueFound, five),
        this.metric(METRIC.dueClaimed, five),
        this.metric(METRIC.dueEnqueued, five),
        this.metric(METRIC.shardsNotRun, five),
      ]),
      graph('Webhooks : réussis, échoués, réessayés, en échec définitif', [
        this.metric(METRIC.deliverySucceeded, five),
        this.metric(METRIC.deliveryFailed, five),
        this.metric(METRIC.deliveryRetried, five),
        this.metric(METRIC.deliveryDeadLettered, five),
      ]),
      graph('Retard d’envoi p50 / p99 (ms)', [
        this.metric(METRIC.dispatchLag, five, 'p50'),
        this.metric(METRIC.dispatchLag, five, 'p99'),
      ]),
    );
    dashboard.addWidgets(
      graph('Files : profondeur et plus vieux message (s)', [
        delivery.queue.metricApproximateNumberOfMessagesVisible({ period: five, statistic: 'Maximum' }),
        delivery.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: five,
          statistic: 'Maximum',
        }),
        delivery.queue.metricApproximateAgeOfOldestMessage({ period: five, statistic: 'Maximum' }),
      ]),
      graph('Stripe : événements appliqués, webhooks refusés', [
        this.metric(METRIC.stripeEventApplied, five),
        this.metric(METRIC.stripeWebhookRejected, five),
      ]),
      graph(
        'E-mails envoyés / refusés / non délivrés, secrets illisibles, 500 interceptées, base indisponible (503)',
        [
          this.metric(METRIC.emailSent, five),
          this.metric(METRIC.emailFailed, five),
          this.metric(METRIC.emailBounced, five),
          this.metric(METRIC.emailComplained, five),
          this.metric(METRIC.secretUnavailable, five),
          this.metric(METRIC.handledServerError, five),
          this.metric(METRIC.storeUnavailable, five),
        ],
      ),
    );
    dashboard.addWidgets(
      graph('Comptes rendus : terminés, échecs signalés, refusés ; exports prêts / en échec', [
        this.metric(REPORT_METRIC.reportedSuccess, five),
        this.metric(REPORT_METRIC.reportedFailure, five),
        this.metric(REPORT_METRIC.reportRefused, five),
        this.metric(REPORT_METRIC.exportBuilt, five),
        this.metric(REPORT_METRIC.exportFailed, five),
      ]),
    );
    dashboard.addWidgets(
      graph(
        'DynamoDB : capacité consommée et requêtes refusées',
        [
          table.table.metricConsumedReadCapacityUnits({ period: five, statistic: 'Sum' }),
          table.table.metricConsumedWriteCapacityUnits({ period: five, statistic: 'Sum' }),
        ],
        24,
      ),
    );
    return dashboard;
  }
}

/** The account's SES reputation, which SES publishes for the region (a rate from 0 to 1). */
const sesReputation = (metricName: string) =>
  new cloudwatch.Metric({
    namespace: 'AWS/SES',
    metricName,
    period: Duration.minutes(15),
    statistic: 'Maximum',
  });

/** An alarm's id with its owner's: two constructs may both have a `ScheduleDeadLetterAlarm`. */
const ownedId = (alarm: cloudwatch.Alarm): string => `${alarm.node.scope?.node.id}-${alarm.node.id}`;
