import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FUNCTION_NAMES, type FunctionName, type FunctionNeeds, NEEDS } from '../../functions/needs';
import {
  ENVIRONMENT,
  optionalVariablesOf,
  POWERTOOLS_VARIABLES,
  variablesOf,
} from '../../functions/runtime/environment';
import type { AppFunction } from '../../lib/constructs/app-function';
import { createSiteFixture, createTestStack } from './support';

/**
 * The template against `functions/needs.ts`: for every function of ours, the IAM policy of its
 * role and its environment variables are exactly what its declaration says — each declared need
 * granted, nothing else. The expectations are written here from the needs' meaning, apart from
 * the constructs that grant them, so a construct that grants more (or less) fails.
 */

type Statement = {
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Condition?: unknown;
};
type Resource = { readonly Type: string; readonly Properties: Record<string, unknown> };

/** One allowed action on one resource, as the template writes the resource. */
type Grant = { readonly action: string; readonly resource: string };

/** What an expected grant may be: an action and a test on the resource's JSON. */
type Expected = {
  readonly action: string;
  readonly resource: (json: string) => boolean;
  readonly what: string;
};

let stack: Stack;
let resources: Record<string, Resource>;
let removeSite: () => Promise<void>;

beforeAll(async () => {
  const site = await createSiteFixture();
  removeSite = site.remove;
  stack = createTestStack(site.dir);
  resources = Template.fromStack(stack).toJSON().Resources;
});

afterAll(async () => {
  await removeSite();
});

const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const idOf = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnFunction);
const child = (...path: string[]) => path.reduce<IConstruct>((node, id) => node.node.findChild(id), stack);

/** Where each function lives in the construct tree. */
function functionConstruct(name: FunctionName): IConstruct {
  if (name === 'scheduled-tick') return child('WebhookDelivery', 'Tick');
  if (name === 'due-claimer') return child('WebhookDelivery', 'Claimer');
  if (name === 'webhook-worker') return child('WebhookDelivery', 'Worker');
  if (name === 'data-retention') return child('DataRetention', 'Purge');
  if (name === 'undelivered-mail') return child('UndeliveredMail', 'Recorder');
  if (name === 'data-export-builder') return child('DataExports', 'Builder');
  return child('Api', name);
}

function roleOf(functionId: string): string {
  const role = resources[functionId]?.Properties.Role as { 'Fn::GetAtt': [string, string] };
  return role['Fn::GetAtt'][0];
}

/** Every (action, resource) a role's inline policies allow, CDK's merged statements taken apart. */
function grantsOf(roleId: string): Grant[] {
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => (r.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === roleId))
    .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
    .flatMap((statement) =>
      asArray(statement.Action).flatMap((action) =>
        asArray(statement.Resource).map((resource) => ({ action, resource: JSON.stringify(resource) })),
      ),
    );
}

const refOf = (...path: string[]) => JSON.stringify({ Ref: idOf(child(...path)) });
const arnOf = (...path: string[]) => JSON.stringify({ 'Fn::GetAtt': [idOf(child(...path)), 'Arn'] });
const is = (json: string) => (resource: string) => resource === json;

const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const TABLE_WRITE = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];
const KEY_SECRETS = {
  sessionSigning: 'SessionSigningKey',
  licenseHash: 'LicenseHashKey',
  licenseEncryption: 'LicenseEncryptionKey',
} as const;
/** What an SQS event source grants its function on the queue it reads. */
const CONSUME = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
];

/**
 * The queue a function's asynchronous invocations go to when every attempt threw, as its
 * `AWS::Lambda::EventInvokeConfig` names it; undefined without one.
 */
function onFailureDestinationOf(functionId: string): string | undefined {
  const configs = Object.values(resources).filter(
    (r) =>
      r.Type === 'AWS::Lambda::EventInvokeConfig' &&
      JSON.stringify(r.Properties.FunctionName) === JSON.stringify({ Ref: functionId }),
  );
  const destination = (
    configs[0]?.Properties.DestinationConfig as { OnFailure?: { Destination: unknown } } | undefined
  )?.OnFailure?.Destination;
  return destination === undefined ? undefined : JSON.stringify(destination);
}

/** Every grant a function with these needs must have, and may have, beside its logs and traces. */
function expectedGrants(needs: FunctionNeeds, functionId: string): Expected[] {
  const expected: Expected[] = [];
  const add = (actions: readonly string[], resource: (json: string) => boolean, what: string) => {
    for (const action of actions) expected.push({ action, resource, what });
  };
  if (needs.table) {
    const table = arnOf('Data', 'Table');
    add(
      needs.table.access === 'readWrite' ? [...TABLE_READ, ...TABLE_WRITE] : TABLE_READ,
      is(table),
      'table',
    );
    for (const index of needs.table.indexes) {
      add(
        ['dynamodb:Query'],
        (json) => json.includes(JSON.parse(table)['Fn::GetAtt'][0]) && json.endsWith(`"/index/${index}"]]}`),
        `index ${index}`,
      );
    }
  }
  for (const key of needs.keys ?? [])
    add(['secretsmanager:GetSecretValue'], is(refOf('AppKeys', KEY_SECRETS[key])), `key ${key}`);
  if (needs.originSecret)
    add(['secretsmanager:GetSecretValue'], is(refOf('OriginVerify', 'Secret')), 'origin secret');
  if (needs.lawyerSecrets)
    add(
      [
        'secretsmanager:CreateSecret',
        'secretsmanager:GetSecretValue',
        'secretsmanager:PutSecretValue',
        'secretsmanager:DeleteSecret',
      ],
      (json) => json.includes(`:secret:${stack.stackName}/lawyer-secrets/*`),
      'lawyer secrets',
    );
  const queue = arnOf('WebhookDelivery', 'Queue');
  const deadLetters = arnOf('WebhookDelivery', 'DeadLetterQueue');
  const sendActions = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];
  if (needs.webhookQueue === 'send' || needs.webhookQueue === 'redrive')
    add(sendActions, is(queue), 'webhook queue (send)');
  if (needs.webhookQueue === 'redrive')
    add(
      ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
      is(deadLetters),
      'dead letters',
    );
  if (needs.webhookQueue === 'consume') {
    add(CONSUME, is(queue), 'webhook queue (consume)');
    // A run whose firm's call slots are all held is sent back, delayed (fair delivery).
    add(['sqs:SendMessage'], is(queue), 'webhook queue (send back)');
  }
  if (needs.webhookSigning)
    add(['secretsmanager:GetSecretValue'], is(refOf('WebhookDelivery', 'SigningSecret')), 'signing secret');
  if (needs.dueClaimers) {
    // The claimer's live alias alone: a rollback moves what the tick starts.
    const alias = (child('WebhookDelivery', 'Claimer') as AppFunction).live;
    add(['lambda:InvokeFunction'], is(JSON.stringify({ Ref: idOf(alias) })), 'claimer alias');
  }
  if (needs.portalLinks) {
    // The sender's live alias alone, as for the claimers.
    const alias = (child('Api', 'portal-link-sender') as AppFunction).live;
    add(['lambda:InvokeFunction'], is(JSON.stringify({ Ref: idOf(alias) })), 'portal-link sender alias');
  }
  if (needs.payments)
    add(['secretsmanager:GetSecretValue'], is(refOf('Billing', 'StripeSecretKey')), 'Stripe API key');
  if (needs.payments === 'webhook')
    add(['secretsmanager:GetSecretValue'], is(refOf('Billing', 'StripeWebhookSecret')), 'Stripe webhook');
  // The sender's identity, and the configuration set every send names.
  if (needs.mailer)
    add(
      ['ses:SendEmail'],
      (json) => json.includes(':identity/') || json.includes(':configuration-set/'),
      'SES sender',
    );
  if (needs.dataExports) {
    // The exports bucket's objects under exports/, nothing else of it.
    const bucket = idOf(child('DataExports', 'Bucket'));
    const exportsObjects = (json: string) => json.includes(bucket) && json.endsWith('"/exports/*"]]}');
    if (needs.dataExports === 'request') {
      add(['s3:GetObject'], exportsObjects, 'exports (read, to sign links)');
      // The builder's live alias alone: a rollback moves what a request starts.
      const alias = (child('DataExports', 'Builder') as AppFunction).live;
      add(['lambda:InvokeFunction'], is(JSON.stringify({ Ref: idOf(alias) })), 'export builder alias');
    }
    if (needs.dataExports === 'build')
      add(['s3:PutObject', 's3:AbortMultipartUpload'], exportsObjects, 'exports (write)');
  }
  if (needs.asyncFailures) {
    // Its own on-failure queue (an SQS queue of the stack), nothing else.
    const destination = onFailureDestinationOf(functionId) ?? 'no on-failure destination';
    add(sendActions, is(destination), `on-failure queue ${destination}`);
  }
  return expected;
}

/** Every function has these: its own log group, and X-Ray. */
const isBaseline = (grant: Grant, logGroupId: string) =>
  (grant.action.startsWith('logs:') && grant.resource.includes(logGroupId)) ||
  (grant.action.startsWith('xray:') && grant.resource === '"*"');

describe('each function is granted exactly what functions/needs.ts declares', () => {
  it.each(FUNCTION_NAMES)('%s', (name) => {
    const functionId = idOf(functionConstruct(name));
    const logGroupId = (resources[functionId]!.Properties.LoggingConfig as { LogGroup: { Ref: string } })
      .LogGroup.Ref;
    const grants = grantsOf(roleOf(functionId)).filter((grant) => !isBaseline(grant, logGroupId));
    const expected = expectedGrants(NEEDS[name], functionId);

    const undeclared = grants.filter(
      (grant) => !expected.some((e) => e.action === grant.action && e.resource(grant.resource)),
    );
    const missing = expected.filter(
      (e) => !grants.some((grant) => e.action === grant.action && e.resource(grant.resource)),
    );
    expect(
      undeclared.map((g) => `${g.action} ${g.resource}`),
      `${name}: granted, not declared`,
    ).toEqual([]);
    expect(
      missing.map((e) => `${e.action} (${e.what})`),
      `${name}: declared, not granted`,
    ).toEqual([]);
  });

  it.each(FUNCTION_NAMES)('%s has an on-failure queue if and only if it declares asyncFailures', (name) => {
    const destination = onFailureDestinationOf(idOf(functionConstruct(name)));
    expect(destination !== undefined, name).toBe(NEEDS[name].asyncFailures === true);
    if (destination === undefined) return;
    const queueId = (JSON.parse(destination) as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    expect(resources[queueId]?.Type).toBe('AWS::SQS::Queue');
  });

  it('gives no table access to a function that reads nothing (create-checkout)', () => {
    const functionId = idOf(functionConstruct('create-checkout'));
    expect(grantsOf(roleOf(functionId)).filter((grant) => grant.action.startsWith('dynamodb:'))).toEqual([]);
  });

  it('lets no function that only verifies sessions read the licence encryption key', () => {
    const encryptionKey = refOf('AppKeys', 'LicenseEncryptionKey');
    for (const name of ['workflows', 'folders', 'audit', 'executions', 'sign-out'] as const) {
      const grants = grantsOf(roleOf(idOf(functionConstruct(name))));
      expect(
        grants.filter((grant) => grant.resource === encryptionKey),
        name,
      ).toEqual([]);
    }
  });
});

describe('each function is given exactly the environment variables of its needs', () => {
  it.each(FUNCTION_NAMES)('%s', (name) => {
    const environment = resources[idOf(functionConstruct(name))]?.Properties.Environment as
      | { Variables: Record<string, unknown> }
      | undefined;
    const expected = [
      ...variablesOf(NEEDS[name]).map((key) => ENVIRONMENT[key]),
      // This stage sets an alarm address, so the admin's alert address too.
      ...optionalVariablesOf(NEEDS[name]).map((key) => ENVIRONMENT[key]),
      ...Object.values(POWERTOOLS_VARIABLES),
    ];
    expect(Object.keys(environment?.Variables ?? {}).sort()).toEqual(expected.sort());
  });
});

describe('each function runs with the memory its needs declare', () => {
  it.each(FUNCTION_NAMES.filter((name) => NEEDS[name].memoryMb !== undefined))('%s', (name) => {
    expect(resources[idOf(functionConstruct(name))]?.Properties.MemorySize).toBe(NEEDS[name].memoryMb);
  });
});

describe('server keys', () => {
  it('has the generator write each key secret, with nothing to migrate from on a fresh stage', () => {
    const keys = Object.values(resources).filter((r) => r.Type === 'Custom::AppKeys');
    expect(keys).toHaveLength(1);
    expect(keys[0]?.Properties).not.toHaveProperty('LegacySecretId');
    expect(keys[0]?.Properties).toMatchObject({
      SessionSigningKey: { Ref: idOf(child('AppKeys', 'SessionSigningKey')) },
      LicenseHashKey: { Ref: idOf(child('AppKeys', 'LicenseHashKey')) },
      LicenseEncryptionKey: { Ref: idOf(child('AppKeys', 'LicenseEncryptionKey')) },
    });
  });
});

describe('SES bounces and complaints reach their recorder', () => {
  it('sends the configuration set’s bounces and complaints to the recorder’s live alias, failures to its queue', () => {
    const rules = Object.values(resources).filter((r) => r.Type === 'AWS::Events::Rule');
    expect(rules).toHaveLength(1);
    const rule = rules[0]!.Properties as {
      EventPattern: { source: string[]; 'detail-type': string[]; detail: unknown };
      Targets: { Arn: { Ref: string } }[];
    };
    expect(rule.EventPattern.source).toEqual(['aws.ses']);
    expect(rule.EventPattern['detail-type']).toEqual(['Email Bounced', 'Email Complaint Received']);
    expect(JSON.stringify(rule.EventPattern.detail)).toContain('ses:configuration-set');
    const recorder = idOf(functionConstruct('undelivered-mail'));
    const alias = resources[rule.Targets[0]!.Arn.Ref];
    expect(alias?.Type).toBe('AWS::Lambda::Alias');
    expect(JSON.stringify(alias?.Properties.FunctionName)).toContain(recorder);
    const invokeConfig = Object.values(resources).find(
      (r) =>
        r.Type === 'AWS::Lambda::EventInvokeConfig' &&
        JSON.stringify(r.Properties.FunctionName).includes(recorder),
    );
    expect(JSON.stringify(invokeConfig?.Properties.DestinationConfig)).toContain(
      'UndeliveredMailFailedEvents',
    );
  });

  it('gives the recorder the table alone: no mailer, no key, no secret', () => {
    const environment = resources[idOf(functionConstruct('undelivered-mail'))]?.Properties.Environment as {
      Variables: Record<string, unknown>;
    };
    expect(Object.keys(environment.Variables)).toContain(ENVIRONMENT.tableName);
    expect(Object.keys(environment.Variables)).not.toContain(ENVIRONMENT.mailFrom);
  });
});
