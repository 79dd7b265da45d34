import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import {
  CLAIMS,
  SCHEDULER_SCHEDULE,
  WEBHOOK_QUEUE,
  WEBHOOK_TIMEOUT_MS,
} from '../../functions/domain/scheduling/scheduling-settings';
import { handlerPathOf } from '../../functions/needs';
import { ENVIRONMENT } from '../../functions/runtime/environment';
import { AppFunction } from './app-function';
import { repositoryPath } from './repository';
import { deadLetterAlarm, deadLetterQueue, scheduleRole, secureQueue } from './scheduled-parts';

/**
 * The settings of `functions/domain/scheduling/scheduling-settings.ts` that the deployed resources depend on,
 * checked here so that an edit there that AWS would refuse, or that breaks what the worker code
 * assumes, fails the synthesis with one clear message rather than the deployment.
 */
function validateSettings(maxConcurrency: number): void {
  const problems: string[] = [];
  const { visibilityTimeoutSeconds, workerTimeoutSeconds, maxReceiveCount, batchSize } = WEBHOOK_QUEUE;
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
  // A batch's calls start side by side and end within the call's time-out; 5 s are left for the
  // reads before them and the writes after.
  const batchSeconds = WEBHOOK_TIMEOUT_MS / 1000 + 5;
  if (workerTimeoutSeconds < batchSeconds) {
    problems.push(
      `the worker's time-out (${workerTimeoutSeconds} s) must cover a batch: ${batchSeconds} s for ` +
        `${batchSize} calls side by side, of ${WEBHOOK_TIMEOUT_MS} ms each at most`,
    );
  }
  // SQS event sources accept a maximum concurrency of 2 to 1000.
  if (!(Number.isInteger(maxConcurrency) && maxConcurrency >= 2 && maxConcurrency <= 1000)) {
    problems.push(`maxConcurrency must be 2 to 1000 (got ${maxConcurrency})`);
  }
  if (SCHEDULER_SCHEDULE.maximumEventAgeSeconds < 60) {
    problems.push(`the schedule's maximum event age must be at least 60 s`);
  }
  if (problems.length > 0) {
    throw new Error(
      `WebhookDelivery (functions/domain/scheduling/scheduling-settings.ts): ${problems.join('; ')}`,
    );
  }
}

/**
 * Scheduling and delivery: the minute schedule and its tick and claimers, the webhook queue and
 * its worker, the signing secret, each failure path under a dead-letter alarm.
 */
export interface WebhookDeliveryProps {
  /**
   * Worker invocations at once (the event source's maximum concurrency): the global cap of
   * webhook calls in flight, a stage setting. @default WEBHOOK_QUEUE.maxConcurrency
   */
  readonly workerConcurrency?: number;
  /**
   * What happens to the signing secret when the stack is deleted: every firm's n8n checks it.
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE
   */
  readonly removalPolicy?: RemovalPolicy;
}

export class WebhookDelivery extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly scheduleDeadLetterQueue: sqs.Queue;
  /** Tick invocations that threw (its asynchronous on-failure destination), kept for diagnosis. */
  readonly tickFailures: sqs.Queue;
  readonly signingSecret: secretsmanager.Secret;
  readonly worker: AppFunction;
  readonly tick: AppFunction;
  readonly claimer: AppFunction;
  readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps = {}) {
    super(scope, id);
    const workerConcurrency = props.workerConcurrency ?? WEBHOOK_QUEUE.maxConcurrency;
    validateSettings(workerConcurrency);

    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.seconds(WEBHOOK_QUEUE.deadLetterRetentionSeconds),
    });
    this.queue = secureQueue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(WEBHOOK_QUEUE.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: WEBHOOK_QUEUE.maxReceiveCount },
    });
    this.scheduleDeadLetterQueue = deadLetterQueue(this, 'ScheduleDeadLetterQueue');

    // Generated by Secrets Manager: 48 alphanumerics, valid base64 of 36 bytes (`whsec_` optional).
    // Changing the generation settings generates a new value, which every n8n check must then get.
    this.signingSecret = new secretsmanager.Secret(this, 'SigningSecret', {
      description: 'Secret de signature des webhooks (Standard Webhooks), à copier dans n8n',
      generateSecretString: { excludePunctuation: true, passwordLength: 48 },
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
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
      entry: repositoryPath(handlerPathOf('webhook-worker')),
      needs: 'webhook-worker',
      description: 'Appelle les webhooks des automatisations dues (file SQS)',
      timeout: Duration.seconds(WEBHOOK_QUEUE.workerTimeoutSeconds),
    });
    this.worker.live.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: WEBHOOK_QUEUE.batchSize,
        maxConcurrency: workerConcurrency,
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

    // A tick that throws is kept here (the schedule's own DLQ only gets refused invocations), not
    // retried: the next minute's tick reads the same due slots.
    this.tickFailures = deadLetterQueue(this, 'TickFailures', { retentionPeriod: Duration.days(4) });
    this.tick = new AppFunction(this, 'Tick', {
      entry: repositoryPath(handlerPathOf('scheduled-tick')),
      needs: 'scheduled-tick',
      description: 'Planificateur : envoie les automatisations dues dans la file (chaque minute)',
      timeout: Duration.seconds(SCHEDULER_SCHEDULE.tickTimeoutSeconds),
      asyncFailures: { queue: this.tickFailures, retryAttempts: 0, maxEventAge: Duration.minutes(1) },
    });
    NagSuppressions.addResourceSuppressions(this.tick, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'Invoked by EventBridge Scheduler, whose target has its own retry policy and dead-letter queue; ' +
          'a run that throws goes to the on-failure destination.',
      },
    ]);

    // The tick's claimers: one asynchronous invocation per due-index shard, started by the tick.
    this.claimer = new AppFunction(this, 'Claimer', {
      entry: repositoryPath(handlerPathOf('due-claimer')),
      needs: 'due-claimer',
      description: 'Planificateur : met en file les automatisations dues d’un lot de l’index (chaque minute)',
      timeout: Duration.seconds(CLAIMS.claimerTimeoutSeconds),
      // Retried twice by Lambda, then kept with the tick's failures; its runs stay due meanwhile
      // (queued before they are claimed), and the next tick reads them again.
      asyncFailures: { queue: this.tickFailures, retryAttempts: 2, maxEventAge: Duration.minutes(2) },
    });

    const role = scheduleRole(
      this,
      'ScheduleRole',
      'Rôle du planificateur EventBridge : invoquer la fonction du tick',
    );
    new scheduler.Schedule(this, 'MinuteSchedule', {
      description: 'Planificateur des automatisations : chaque minute',
      schedule: scheduler.ScheduleExpression.expression(SCHEDULER_SCHEDULE.expression),
      target: new targets.LambdaInvoke(this.tick.live, {
        role,
        deadLetterQueue: this.scheduleDeadLetterQueue,
        retryAttempts: SCHEDULER_SCHEDULE.maximumRetryAttempts,
        maxEventAge: Duration.seconds(SCHEDULER_SCHEDULE.maximumEventAgeSeconds),
      }),
    });

    // After the schedule: its target writes the role's policy, which the suppression must reach.
    NagSuppressions.addResourceSuppressions(
      role,
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
      // A tick, or a claimer after its two retries: transient failures are retried by the next
      // minute's tick, but one that fails every minute leaves its shard's runs unsent.
      deadLetterAlarm(
        this,
        'TickFailuresAlarm',
        this.tickFailures,
        'Un passage du planificateur ou un de ses lots a échoué après les nouvelles tentatives : ' +
          'les automatisations dues de ce lot ne partent pas tant que l’erreur se répète.',
      ),
    ];
  }

  /** Lets a function start the tick's claimers: invoke the claimer function, nothing else. */
  grantClaimers(fn: lambda.Function): void {
    fn.addEnvironment(ENVIRONMENT.dueClaimerFunctionName, this.claimer.live.functionArn);
    this.claimer.live.grantInvoke(fn);
    // On the role (the tick's role is its own construct, not a child of the function).
    NagSuppressions.addResourceSuppressions(
      fn.role ?? fn,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'lambda:InvokeFunction on the claimer function and its versions (`<arn>:*`), as ' +
            '`grantInvoke` writes it; no other function.',
          appliesTo: [{ regex: '/^Resource::<WebhookDeliveryClaimer.*\\.Arn>:\\*$/' }],
        },
      ],
      true,
    );
  }

  /** Lets a function sign webhook calls: the signing secret, read only. */
  grantSigning(fn: lambda.Function): void {
    fn.addEnvironment(ENVIRONMENT.webhookSecretArn, this.signingSecret.secretArn);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [this.signingSecret.secretArn],
      }),
    );
  }

  /** Lets a function hand due runs to the queue (the tick, the admin's trigger): send only. */
  grantDispatch(fn: lambda.Function): void {
    fn.addEnvironment(ENVIRONMENT.webhookQueueUrl, this.queue.queueUrl);
    this.queue.grantSendMessages(fn);
  }

  /**
   * The worker: ChangeMessageVisibility (the back-off) on the messages it received, which the
   * event source's consume grant covers (set up with the event source above), and SendMessage to
   * send a run back when its firm's call slots are all held. It never reads the dead-letter queue.
   */
  grantConsume(fn: lambda.Function): void {
    if (fn !== this.worker) throw new Error('WebhookDelivery: only its worker consumes the queue');
    fn.addEnvironment(ENVIRONMENT.webhookQueueUrl, this.queue.queueUrl);
    // A run whose firm has every call slot taken goes back to the queue as a new, delayed message.
    this.queue.grantSendMessages(fn);
  }

  /**
   * Lets a function dispatch, count the dead-lettered runs (GetQueueAttributes) and send them back
   * (receive them, send them to the queue, delete them): the admin's trigger and settings page.
   */
  grantRedrive(fn: lambda.Function): void {
    this.grantDispatch(fn);
    fn.addEnvironment(ENVIRONMENT.webhookDeadLetterQueueUrl, this.deadLetterQueue.queueUrl);
    // DeleteMessageBatch is authorised by sqs:DeleteMessage; the queues use SQS-managed keys, so
    // no KMS permission is needed.
    this.deadLetterQueue.grant(fn, 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes');
  }
}
