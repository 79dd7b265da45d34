import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';

import { ENVIRONMENT } from '../../functions/runtime/environment';
import { Billing } from '../../lib/constructs/billing';
import { MailDelivery } from '../../lib/constructs/mail-delivery';
import { EXAMPLE_LEGAL_DETAILS } from '../../shared/legal-details';
import { createTestApp, TEST_ENV } from './support';

const SENDER = 'licences@cabinet.example';

/** A bare function to bind (the construct is tested apart from the bundled handlers). */
const bareFunction = (stack: Stack, id: string) =>
  new lambda.Function(stack, id, {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('export const handler = async () => ({});'),
  });

/** The IAM statements of the policies attached to a function's role. */
function statementsOf(template: Template, stack: Stack, fn: lambda.Function): Record<string, unknown>[] {
  const roleId = stack.getLogicalId(fn.role!.node.defaultChild as never);
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Record<string, unknown>[]);
}

const actionsOf = (statements: Record<string, unknown>[]) =>
  statements.flatMap((statement) => [statement.Action].flat() as string[]);

describe('Billing', () => {
  let stack: Stack;
  let template: Template;
  let billing: Billing;
  let checkout: lambda.Function;
  let webhook: lambda.Function;

  beforeAll(() => {
    stack = new Stack(createTestApp(), 'BillingOnly', { env: TEST_ENV });
    billing = new Billing(stack, 'Billing', {
      mailFrom: SENDER,
      legalDetails: EXAMPLE_LEGAL_DETAILS,
      mail: new MailDelivery(stack, 'Mail'),
    });
    checkout = bareFunction(stack, 'Checkout');
    webhook = bareFunction(stack, 'Webhook');
    billing.grantPayments(checkout, 'https://site.example', 'api');
    billing.grantPayments(webhook, 'https://site.example', 'webhook');
    billing.grantMail(webhook);
    template = Template.fromStack(stack);
  });

  it('creates both Stripe secrets empty and keeps them when the stack goes', () => {
    const secrets = template.findResources('AWS::SecretsManager::Secret');

    expect(Object.keys(secrets)).toHaveLength(2);
    for (const secret of Object.values(secrets)) {
      expect(secret.Properties).not.toHaveProperty('GenerateSecretString');
      expect(secret.Properties).not.toHaveProperty('SecretString');
      // Kept, except by the rollback of the create that made them.
      expect(secret.DeletionPolicy).toBe('RetainExceptOnCreate');
    }
  });

  it('gives every billing function the API key secret and the site address', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: {
          [ENVIRONMENT.stripeSecretKeyArn]: {
            Ref: stack.getLogicalId(billing.stripeSecretKey.node.defaultChild as never),
          },
          [ENVIRONMENT.publicBaseUrl]: 'https://site.example',
        },
      },
    });
    expect(actionsOf(statementsOf(template, stack, checkout))).toEqual(
      expect.arrayContaining(['secretsmanager:GetSecretValue']),
    );
  });

  it('gives the webhook signing secret to the webhook function only', () => {
    const webhookSecretId = stack.getLogicalId(billing.stripeWebhookSecret.node.defaultChild as never);
    const readsWebhookSecret = (fn: lambda.Function) =>
      statementsOf(template, stack, fn).some((statement) =>
        JSON.stringify(statement.Resource).includes(webhookSecretId),
      );

    expect(readsWebhookSecret(webhook)).toBe(true);
    expect(readsWebhookSecret(checkout)).toBe(false);
  });

  it('lets only the mailing functions send, as the sender, on its identity alone', () => {
    const send = statementsOf(template, stack, webhook).find(
      (statement) => statement.Action === 'ses:SendEmail',
    );

    expect(send).toMatchObject({
      Condition: { StringEquals: { 'ses:FromAddress': SENDER } },
    });
    expect(JSON.stringify(send?.Resource)).toContain(`:identity/${SENDER}`);
    expect(JSON.stringify(send?.Resource)).toContain(':identity/cabinet.example');
    // Every send names the configuration set, which SES authorises as well.
    expect(JSON.stringify(send?.Resource)).toContain(':configuration-set/');
    expect(JSON.stringify(send?.Resource)).not.toContain('*');
    expect(actionsOf(statementsOf(template, stack, checkout))).not.toContain('ses:SendEmail');
  });

  it('gives the mail senders the legal details of the e-mails’ footer', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({ [ENVIRONMENT.legalDetails]: JSON.stringify(EXAMPLE_LEGAL_DETAILS) }),
      },
    });
  });

  it('asks for no deployment parameter: the sender is a checked context value', () => {
    expect(template.toJSON().Parameters ?? {}).not.toHaveProperty('MailFrom');
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ [ENVIRONMENT.mailFrom]: SENDER }) },
    });
  });

  it('refuses a sender that is not a bare e-mail address', () => {
    const other = new Stack(createTestApp(), 'BillingInvalid', { env: TEST_ENV });

    const mail = new MailDelivery(other, 'Mail');
    expect(
      () =>
        new Billing(other, 'Billing', {
          mailFrom: 'Cabinet <licences@cabinet.example>',
          legalDetails: EXAMPLE_LEGAL_DETAILS,
          mail,
        }),
    ).toThrow(/mailFrom must be a bare e-mail address/);
  });
});
