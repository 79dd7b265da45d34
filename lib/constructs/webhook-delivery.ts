import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { SCHEDULER_SCHEDULE, WEBHOOK_QUEUE } from '../../functions/scheduling/settings';
import { AppFunction } from './app-function';
import type { DataTable } from './data-table';
import { repositoryPath } from './repository';

/** The environment variables the scheduling code reads (`functions/scheduling/ports.ts`). */
const ENV = {
  queueUrl: 'WEBHOOK_QUEUE_URL',
  deadLetterQueueUrl: 'WEBHOOK_DLQ_URL',
  secretArn: 'WEBHOOK_SECRET_ARN',
} as const;

export interface WebhookDeliveryProps {
  /** The table the tick and the worker read and write (due index, claims, executions). */
  readonly table: DataTable;
}

/**
 * The settings of `functions/scheduling/settings.ts` that the deployed resources depend on,
 * checked here so that an edit there that AWS would refuse, or that breaks what the worker code
 * assumes, fails the synthesis with one clear message rather than the deployment.
 */
function validateSettings(): void {
  const problems: string[] = [];
  const { visibilityTimeoutSeconds, workerTimeoutSeconds, maxReceiveCount, batchSize, maxConcurrency } =
    WEBHOOK_QUEUE;
  if (visibilityTimeoutSeconds < 6 * workerTimeoutSeconds) {
    problems.push(
      `the queue visibility time-out (${visibilityTimeoutSeconds} s) must be at least six times the ` +
        `worker's time-out (${workerTimeoutSeconds} s), as AWS advises for an SQS event source`,
    );
  }
  if (!(Number.isInteger(maxReceiveCount) && maxReceiveCount >= 1 && maxReceiveCount <= 1000)) {
    problems.push(`maxReceiveCount must be 1 to 1000 (got ${maxReceiveCount})`);
  }
  if (!(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= 10)) {
    problems.push(`batchSize must be 1 to 10 (got ${batchSize})`);
  }
  // SQS event sources accept a maximum concurrency of 2 to 1000.
  if (!(Number.isInteger(maxConcurrency) && maxConcurrency >= 2 && maxConcurrency <= 1000)) {
    problems.push(`maxConcurrency must be 2 to 1000 (got ${maxConcurrency})`);
  }
  if (SCHEDULER_SCHEDULE.maximumEventAgeSeconds < 60) {
    problems.push(`the schedule's maximum event age must be at least 60 s`);
  }
  if (problems.length > 0) {
    throw new Error(`WebhookDelivery (functions/scheduling/settings.ts): ${problems.join('; ')}`);
  }
}

/** A queue encrypted at rest by SQS and refusing any request not made over TLS. */
function secureQueue(scope: Construct, id: string, props: sqs.QueueProps): sqs.Queue {
  return new sqs.Queue(scope, id, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    ...props,
  });
}

/** An alarm raised as soon as a dead-letter queue holds a message. */
function deadLetterAlarm(scope: Construct, id: string, queue: sqs.Queue, description: string) {
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
 * Scheduling and webhook delivery (issue 4): the one-minute EventBridge Scheduler schedule that
 * runs the scheduler tick (retries, then its own dead-letter queue), the SQS webhook queue with its
 * dead-letter queue, the worker on that queue (batches of one, at most five at once, partial batch
 * failures), the per-deployment webhook signing secret, and an alarm on each dead-letter queue.
 * The API functions that dispatch, redrive or sign are bound through the `grant…` methods.
 */
export class WebhookDelivery extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly scheduleDeadLetterQueue: sqs.Queue;
  readonly signingSecret: secretsmanager.Secret;
  readonly worker: AppFunction;
  readonly tick: AppFunction;
  readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    validateSettings();

    this.deadLetterQueue = secureQueue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.seconds(WEBHOOK_QUEUE.deadLetterRetentionSeconds),
    });
    this.queue = secureQueue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(WEBHOOK_QUEUE.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: WEBHOOK_QUEUE.maxReceiveCount },
    });
    this.scheduleDeadLetterQueue = secureQueue(this, 'ScheduleDeadLetterQueue', {
      retentionPeriod: Duration.days(14),
    });
    for (const queue of [this.deadLetterQueue, this.scheduleDeadLetterQueue]) {
      const reason = 'This is a dead-letter queue: what fails here is watched by an alarm, not sent further.';
      NagSuppressions.addResourceSuppressions(queue, [
        { id: 'AwsSolutions-SQS3', reason },
        { id: 'Serverless-SQSRedrivePolicy', reason },
      ]);
    }

    // Generated by Secrets Manager: 48 alphanumerics, valid base64 of 36 bytes (`whsec_` optional).
    // Changing the generation settings generates a new value, which every n8n check must then get.
    this.signingSecret = new secretsmanager.Secret(this, 'SigningSecret', {
      description: 'Secret de signature des webhooks (Standard Webhooks), à copier dans n8n',
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
    });
    NagSuppressions.addResourceSuppressions(this.signingSecret, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'Not rotated automatically: the firm copies it into its n8n workflows to check our ' +
          'signatures, so a rotation is a coordinated change done by hand.',
      },
    ]);

    this.worker = new AppFunction(this, 'Worker', {
      entry: repositoryPath('functions', 'webhook-worker.ts'),
      description: 'Appelle les webhooks des automatisations dues (file SQS)',
      timeout: Duration.seconds(WEBHOOK_QUEUE.workerTimeoutSeconds),
    });
    props.table.bindTable(this.worker, 'readWrite');
    // Its one queue call of its own is ChangeMessageVisibility (the back-off) on the messages it
    // received, which the event source's consume grant covers; it never sends nor reads the DLQ.
    this.worker.addEnvironment(ENV.queueUrl, this.queue.queueUrl);
    this.grantSigning(this.worker);
    this.worker.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: WEBHOOK_QUEUE.batchSize,
        maxConcurrency: WEBHOOK_QUEUE.maxConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    NagSuppressions.addResourceSuppressions(
      this.worker,
      [
        {
          id: 'Serverless-LambdaDLQ',
          reason: 'Invoked by its SQS event source: failed messages go to the queue’s own dead-letter queue.',
        },
        {
          id: 'Serverless-LambdaEventSourceMappingDestination',
          reason:
            'An SQS event source has no on-failure destination: a message that keeps failing goes to ' +
            'the queue’s redrive dead-letter queue (maxReceiveCount), under an alarm.',
        },
      ],
      true,
    );

    this.tick = new AppFunction(this, 'Tick', {
      entry: repositoryPath('functions', 'scheduled-tick.ts'),
      description: 'Planificateur : envoie les automatisations dues dans la file (chaque minute)',
      timeout: Duration.seconds(SCHEDULER_SCHEDULE.tickTimeoutSeconds),
    });
    props.table.bindTable(this.tick, 'readWrite');
    this.grantDispatch(this.tick);
    NagSuppressions.addResourceSuppressions(this.tick, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'Invoked by EventBridge Scheduler, whose target has its own retry policy and dead-letter queue.',
      },
    ]);

    // Our own role for the schedule, so that its permissions (invoke the tick, send to its DLQ)
    // are ours to scope; only EventBridge Scheduler acting for this account's default schedule
    // group may assume it (confused-deputy conditions, as AWS documents for execution roles).
    const stack = Stack.of(this);
    const scheduleRole = new iam.Role(this, 'ScheduleRole', {
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
      description: 'Rôle du planificateur EventBridge : invoquer la fonction du tick',
    });
    new scheduler.Schedule(this, 'MinuteSchedule', {
      description: 'Planificateur des automatisations : chaque minute',
      schedule: scheduler.ScheduleExpression.expression(SCHEDULER_SCHEDULE.expression),
      target: new targets.LambdaInvoke(this.tick, {
        role: scheduleRole,
        deadLetterQueue: this.scheduleDeadLetterQueue,
        retryAttempts: SCHEDULER_SCHEDULE.maximumRetryAttempts,
        maxEventAge: Duration.seconds(SCHEDULER_SCHEDULE.maximumEventAgeSeconds),
      }),
    });

    // After the schedule: its target writes the role's policy, which the suppression must reach.
    NagSuppressions.addResourceSuppressions(
      scheduleRole,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'lambda:InvokeFunction on the tick function and its versions (`<arn>:*`), as ' +
            '`grantInvoke` writes it; no other function.',
          appliesTo: [{ regex: '/^Resource::<WebhookDeliveryTick.*\\.Arn>:\\*$/' }],
        },
      ],
      true,
    );
    this.alarms = [
      deadLetterAlarm(
        this,
        'DeadLetterAlarm',
        this.deadLetterQueue,
        'Des appels de webhook ont échoué après toutes les tentatives : voir Paramètres > Exécutions en échec.',
      ),
      deadLetterAlarm(
        this,
        'ScheduleDeadLetterAlarm',
        this.scheduleDeadLetterQueue,
        'Des exécutions du planificateur ont échoué après les nouvelles tentatives.',
      ),
    ];
  }

  /** Lets a function sign webhook calls: the signing secret, read only. */
  grantSigning(fn: lambda.Function): void {
    fn.addEnvironment(ENV.secretArn, this.signingSecret.secretArn);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [this.signingSecret.secretArn],
      }),
    );
  }

  /** Lets a function hand due runs to the queue (the tick, the admin's trigger): send only. */
  grantDispatch(fn: lambda.Function): void {
    fn.addEnvironment(ENV.queueUrl, this.queue.queueUrl);
    this.queue.grantSendMessages(fn);
  }

  /**
   * Lets a function dispatch, count the dead-lettered runs (GetQueueAttributes) and send them back
   * (receive them, send them to the queue, delete them): the admin's trigger and settings page.
   */
  grantRedrive(fn: lambda.Function): void {
    this.grantDispatch(fn);
    fn.addEnvironment(ENV.deadLetterQueueUrl, this.deadLetterQueue.queueUrl);
    // DeleteMessageBatch is authorised by sqs:DeleteMessage; the queues use SQS-managed keys, so
    // no KMS permission is needed.
    this.deadLetterQueue.grant(fn, 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes');
  }
}
