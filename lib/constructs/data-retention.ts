import { Duration } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { handlerPathOf } from '../../functions/needs';
import { AppFunction } from './app-function';
import { repositoryPath } from './repository';
import { deadLetterAlarm, deadLetterQueue, scheduleRole } from './scheduled-parts';

/** How often the purge runs: a lawyer's data goes at most an hour after its 30 days (spec §9). */
export const RETENTION_SCHEDULE = 'rate(1 hour)';

/**
 * Spec §9: an hourly purge of the lawyers whose subscription ended 30 days ago; a purge that keeps
 * failing lands under an alarm and stays due for the next run.
 */
export class DataRetention extends Construct {
  readonly purge: AppFunction;
  /** Purge runs that threw on every attempt (its asynchronous on-failure destination). */
  readonly failedRuns: sqs.Queue;
  readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string) {
    super(scope, id);

    // A purge that throws (a deletion failed) is retried twice by Lambda, then kept here under an
    // alarm: the schedule's own dead-letter queue only gets the invocations Lambda refused.
    this.failedRuns = deadLetterQueue(this, 'FailedRuns');
    this.purge = new AppFunction(this, 'Purge', {
      entry: repositoryPath(handlerPathOf('data-retention')),
      needs: 'data-retention',
      description: 'Rétention : supprime les données des avocats 30 jours après la résiliation',
      timeout: Duration.minutes(5),
      asyncFailures: { queue: this.failedRuns, retryAttempts: 2, maxEventAge: Duration.hours(1) },
    });
    NagSuppressions.addResourceSuppressions(this.purge, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'Invoked by EventBridge Scheduler, whose target has its own retry policy and dead-letter queue; ' +
          'a run that throws goes to the on-failure destination.',
      },
    ]);

    const failed = deadLetterQueue(this, 'ScheduleDeadLetterQueue');
    const role = scheduleRole(this, 'ScheduleRole', 'Rôle de la rétention : invoquer la fonction de purge');
    new scheduler.Schedule(this, 'HourlySchedule', {
      description: 'Rétention des données : chaque heure',
      schedule: scheduler.ScheduleExpression.expression(RETENTION_SCHEDULE),
      target: new targets.LambdaInvoke(this.purge.live, {
        role,
        deadLetterQueue: failed,
        retryAttempts: 2,
        maxEventAge: Duration.hours(1),
      }),
    });
    NagSuppressions.addResourceSuppressions(
      role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'lambda:InvokeFunction on the purge function and its versions (`<arn>:*`), as ' +
            '`grantInvoke` writes it; no other function.',
          appliesTo: [{ regex: '/^Resource::<DataRetentionPurge.*\\.Arn>:\\*$/' }],
        },
      ],
      true,
    );
    this.alarms = [
      deadLetterAlarm(
        this,
        'ScheduleDeadLetterAlarm',
        failed,
        'Le planificateur n’a pas pu lancer la suppression des données 30 jours après résiliation.',
      ),
      deadLetterAlarm(
        this,
        'FailedRunsAlarm',
        this.failedRuns,
        'La suppression des données 30 jours après résiliation a échoué après les nouvelles tentatives.',
      ),
    ];
  }
}
