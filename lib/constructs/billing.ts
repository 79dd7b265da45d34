import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import type { FunctionNeeds } from '../../functions/needs';
import { ENVIRONMENT } from '../../functions/runtime/environment';
import type { LegalDetails } from '../../shared/legal-details';
import type { MailDelivery } from './mail-delivery';

export interface BillingProps {
  /**
   * The sender of the billing e-mails, a bare address (`licences@cabinet.example`) of an SES
   * identity verified in the stack's region: the `mailFrom` context value (`-c mailFrom=…`),
   * checked at synthesis, so a deployment never stops on a missing parameter.
   */
  readonly mailFrom: string;
  /** The publisher's legal details, at the foot of every e-mail (`-c companyName=…`, lib/settings.ts). */
  readonly legalDetails: LegalDetails;
  /**
   * What happens to the two Stripe secrets when the stack is deleted.
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE (their values are set by hand)
   */
  readonly removalPolicy?: RemovalPolicy;
  /** The configuration set every send names (bounces, complaints, reputation). */
  readonly mail: MailDelivery;
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/**
 * Stripe's two secrets, created empty for ops to fill (nothing Stripe issues is in the template),
 * and SES sending limited to the one sender; granted only to the functions that declare them.
 */
export class Billing extends Construct {
  readonly stripeSecretKey: secretsmanager.Secret;
  readonly stripeWebhookSecret: secretsmanager.Secret;
  /** The sender address. */
  readonly mailFrom: string;
  private readonly identityArns: string[];
  private readonly mail: MailDelivery;
  private readonly legalDetails: LegalDetails;

  constructor(scope: Construct, id: string, props: BillingProps) {
    super(scope, id);
    validate(props);
    const stack = Stack.of(this);

    this.stripeSecretKey = emptySecret(
      this,
      'StripeSecretKey',
      'Clé secrète de l’API Stripe (sk_live_… ou sk_test_…)',
      props.removalPolicy,
    );
    this.stripeWebhookSecret = emptySecret(
      this,
      'StripeWebhookSecret',
      'Secret de signature du point de terminaison webhook Stripe (whsec_…)',
      props.removalPolicy,
    );

    this.mailFrom = props.mailFrom;
    this.mail = props.mail;
    this.legalDetails = props.legalDetails;
    const domain = this.mailFrom.split('@')[1] as string;
    const identityArn = (identity: string) =>
      stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity });
    // SES authorises a send against the identity it uses: the address if it is verified itself,
    // else its domain. Both are this one sender's; the condition pins the address.
    this.identityArns = [identityArn(this.mailFrom), identityArn(domain)];
  }

  /**
   * Gives a function Stripe: its API key and the site's public address for Stripe's return
   * links, and with `webhook` the endpoint's signing secret.
   *
   * @param publicUrl the site's origin (`https://…`), as the browser reaches it
   */
  grantPayments(
    fn: lambda.Function,
    publicUrl: string,
    payments: NonNullable<FunctionNeeds['payments']>,
  ): void {
    fn.addEnvironment(ENVIRONMENT.stripeSecretKeyArn, this.stripeSecretKey.secretArn);
    grantGetSecretValue(fn, this.stripeSecretKey);
    fn.addEnvironment(ENVIRONMENT.publicBaseUrl, publicUrl);
    if (payments === 'webhook') {
      fn.addEnvironment(ENVIRONMENT.stripeWebhookSecretArn, this.stripeWebhookSecret.secretArn);
      grantGetSecretValue(fn, this.stripeWebhookSecret);
    }
  }

  /** Lets a function send e-mail as the sender, and nothing else of SES. */
  grantMail(fn: lambda.Function): void {
    fn.addEnvironment(ENVIRONMENT.mailFrom, this.mailFrom);
    fn.addEnvironment(ENVIRONMENT.mailConfigurationSet, this.mail.configurationSetName);
    fn.addEnvironment(ENVIRONMENT.legalDetails, JSON.stringify(this.legalDetails));
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [...this.identityArns, this.mail.configurationSetArn],
        conditions: { StringEquals: { 'ses:FromAddress': this.mailFrom } },
      }),
    );
  }
}

/** GetSecretValue on one secret and nothing else (`Secret.grantRead` adds DescribeSecret). */
function grantGetSecretValue(fn: lambda.Function, secret: secretsmanager.Secret): void {
  fn.addToRolePolicy(
    new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
  );
}

/** A secret with no value at all: CloudFormation creates it, ops put the value. */
function emptySecret(
  scope: Construct,
  id: string,
  description: string,
  removalPolicy = RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
): secretsmanager.Secret {
  const secret = new secretsmanager.Secret(scope, id, {
    description,
    // The value is set by hand: prod keeps it when the stack goes, like the keys it guards.
    removalPolicy,
  });
  // The L2 construct always asks CloudFormation to generate a value; this one must stay empty
  // until ops put Stripe's, so that a generated string is never mistaken for a key.
  (secret.node.defaultChild as secretsmanager.CfnSecret).addPropertyDeletionOverride('GenerateSecretString');
  NagSuppressions.addResourceSuppressions(secret, [
    {
      id: 'AwsSolutions-SMG4',
      reason:
        'Issued by Stripe, not by AWS: it is rolled in the Stripe dashboard and then put here ' +
        '(docs/billing.md); Secrets Manager has no rotation function for a Stripe key.',
    },
  ]);
  return secret;
}

function validate(props: BillingProps): void {
  if (!EMAIL.test(props.mailFrom)) {
    throw new Error(
      `Billing: mailFrom must be a bare e-mail address of a verified SES identity (got "${props.mailFrom}")`,
    );
  }
}
