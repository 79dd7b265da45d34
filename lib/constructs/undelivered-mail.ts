import { Duration } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { handlerPathOf } from '../../functions/needs';
import { AppFunction } from './app-function';
import type { MailDelivery } from './mail-delivery';
import { repositoryPath } from './repository';
import { deadLetterAlarm, deadLetterQueue } from './scheduled-parts';

/**
 * The function that records SES bounces and complaints of the configuration set: a licence e-mail
 * that did not arrive marks its licence and lawyer 'e-mail non délivré'. An event it fails on every
 * attempt is kept under an alarm.
 */
export class UndeliveredMailRecorder extends Construct {
  readonly recorder: AppFunction;
  /** Events the recorder threw on at every attempt (its asynchronous on-failure destination). */
  readonly failedEvents: sqs.Queue;
  readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: { readonly mail: MailDelivery }) {
    super(scope, id);
    this.failedEvents = deadLetterQueue(this, 'FailedEvents');
    this.recorder = new AppFunction(this, 'Recorder', {
      entry: repositoryPath(handlerPathOf('undelivered-mail')),
      needs: 'undelivered-mail',
      description: 'E-mails non délivrés : marque la licence et l’avocat (rebonds et plaintes SES)',
      asyncFailures: { queue: this.failedEvents, retryAttempts: 2, maxEventAge: Duration.hours(6) },
    });
    NagSuppressions.addResourceSuppressions(this.recorder, [
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'Invoked asynchronously by an EventBridge rule; an event that throws on every attempt goes to ' +
          'the on-failure destination, under an alarm.',
      },
    ]);
    props.mail.recordUndeliveredWith(this.recorder);
    this.alarms = [
      deadLetterAlarm(
        this,
        'FailedEventsAlarm',
        this.failedEvents,
        'Un rebond ou une plainte SES n’a pas pu être enregistré : un e-mail de licence non délivré ' +
          'n’est pas signalé sur la fiche de l’avocat.',
      ),
    ];
  }
}
