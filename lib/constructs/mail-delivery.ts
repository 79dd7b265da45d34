import { Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as eventTargets from 'aws-cdk-lib/aws-events-targets';
import * as ses from 'aws-cdk-lib/aws-ses';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import type { AppFunction } from './app-function';

/** The SES events that say a licence e-mail never reached its holder. */
export const UNDELIVERED_EVENTS = ['Email Bounced', 'Email Complaint Received'] as const;

/**
 * What happens to each e-mail after SES accepts it: every send names this configuration set, which
 * publishes the account's reputation, keeps bounced and complaining addresses out of later sends,
 * and hands bounces and complaints to EventBridge for the function that records them.
 */
export class MailDelivery extends Construct {
  readonly configurationSet: ses.ConfigurationSet;
  private readonly bus: events.IEventBus;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    // SES publishes to the default bus only.
    this.bus = events.EventBus.fromEventBusName(this, 'DefaultBus', 'default');
    this.configurationSet.addEventDestination('Undelivered', {
      destination: ses.EventDestination.eventBus(this.bus),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });
  }

  /** Sends this configuration set's bounces and complaints to a function's live alias. */
  recordUndeliveredWith(fn: AppFunction): events.Rule {
    const rule = new events.Rule(this, 'UndeliveredRule', {
      description: 'Rebonds et plaintes des e-mails de l’assistant juridique',
      eventBus: this.bus,
      eventPattern: {
        source: ['aws.ses'],
        detailType: [...UNDELIVERED_EVENTS],
        detail: { mail: { tags: { 'ses:configuration-set': [this.configurationSet.configurationSetName] } } },
      },
      targets: [new eventTargets.LambdaFunction(fn.live)],
    });
    NagSuppressions.addResourceSuppressions(rule, [
      {
        id: 'Serverless-EventBusDLQ',
        reason:
          'Lambda accepts each event asynchronously; an event the function fails on every attempt goes ' +
          'to its on-failure queue, under an alarm, so a dead-letter queue here would stay empty.',
      },
    ]);
    return rule;
  }

  get configurationSetName(): string {
    return this.configurationSet.configurationSetName;
  }

  /** The ARN `ses:SendEmail` is also authorised against when a send names the set. */
  get configurationSetArn(): string {
    return Stack.of(this).formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
  }
}
