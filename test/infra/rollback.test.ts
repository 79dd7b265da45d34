import {
  CloudFormationClient,
  DescribeStacksCommand,
  ListStackResourcesCommand,
} from '@aws-sdk/client-cloudformation';
import {
  GetAliasCommand,
  LambdaClient,
  ListVersionsByFunctionCommand,
  UpdateAliasCommand,
} from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';

import { applyRollback, lastUpdateOf, planRollback } from '../../lib/rollback';

const cloudFormation = mockClient(CloudFormationClient);
const lambda = mockClient(LambdaClient);
const clients = () => ({ cloudFormation: new CloudFormationClient({}), lambda: new LambdaClient({}) });

const FN = 'arn:aws:lambda:eu-west-3:123456789012:function:AssistantJuridique-prod-Api';
const deployStarted = new Date('2026-03-02T10:00:00Z');

/** A function with versions published at the given times, its alias on `live`. */
function aliasOf(name: string, live: string, versions: Record<string, string>) {
  lambda
    .on(GetAliasCommand, { FunctionName: `${FN}${name}`, Name: 'live' })
    .resolves({ FunctionVersion: live });
  lambda.on(ListVersionsByFunctionCommand, { FunctionName: `${FN}${name}` }).resolves({
    Versions: [
      { Version: '$LATEST', LastModified: '2026-03-02T10:03:00.000+0000' },
      ...Object.entries(versions).map(([Version, LastModified]) => ({ Version, LastModified })),
    ],
  });
}

beforeEach(() => {
  cloudFormation.reset();
  lambda.reset();
  cloudFormation.on(ListStackResourcesCommand).resolves({
    StackResourceSummaries: ['lawyers', 'me', 'audit'].map((name) => ({
      ResourceType: 'AWS::Lambda::Alias',
      LogicalResourceId: `Api${name}Live`,
      PhysicalResourceId: `${FN}${name}:live`,
      ResourceStatus: 'UPDATE_COMPLETE',
      LastUpdatedTimestamp: deployStarted,
    })),
  });
  // lawyers changed in the bad deploy; me changed in an earlier one; audit was never changed since.
  aliasOf('lawyers', '7', {
    '5': '2026-02-20T09:00:00.000+0000',
    '6': '2026-02-27T09:00:00.000+0000',
    '7': '2026-03-02T10:02:00.000+0000',
  });
  aliasOf('me', '3', { '2': '2026-02-20T09:00:00.000+0000', '3': '2026-02-27T09:00:00.000+0000' });
  aliasOf('audit', '1', { '1': '2026-02-01T09:00:00.000+0000' });
});

describe('rolling back a deployment', () => {
  it('moves back only the aliases the deployment moved, each to its version live before', async () => {
    const moves = await planRollback('AssistantJuridique-prod', deployStarted, clients());
    expect(moves.map(({ alias, from, to }) => ({ alias: alias.split(':function:')[1], from, to }))).toEqual([
      { alias: 'AssistantJuridique-prod-Apiaudit:live', from: '1', to: undefined },
      { alias: 'AssistantJuridique-prod-Apilawyers:live', from: '7', to: '6' },
      { alias: 'AssistantJuridique-prod-Apime:live', from: '3', to: undefined },
    ]);
    await applyRollback(moves, new LambdaClient({}));
    const updates = lambda.commandCalls(UpdateAliasCommand).map((call) => call.args[0].input);
    expect(updates).toEqual([{ FunctionName: `${FN}lawyers`, Name: 'live', FunctionVersion: '6' }]);
  });

  it('leaves a function alone that has no version from before the deployment', async () => {
    cloudFormation.on(ListStackResourcesCommand).resolves({
      StackResourceSummaries: [
        {
          ResourceType: 'AWS::Lambda::Alias',
          LogicalResourceId: 'ApinewLive',
          PhysicalResourceId: `${FN}new:live`,
          ResourceStatus: 'CREATE_COMPLETE',
          LastUpdatedTimestamp: deployStarted,
        },
      ],
    });
    aliasOf('new', '1', { '1': '2026-03-02T10:01:00.000+0000' });
    const moves = await planRollback('AssistantJuridique-prod', deployStarted, clients());
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ from: '1', reason: 'no version published before that deployment' });
    expect(moves[0]?.to).toBeUndefined();
  });

  it('undoes the stack’s last update by default', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [
        {
          StackName: 'AssistantJuridique-prod',
          CreationTime: new Date('2026-01-01T00:00:00Z'),
          StackStatus: 'UPDATE_COMPLETE',
          LastUpdatedTime: deployStarted,
        },
      ],
    });
    expect(await lastUpdateOf('AssistantJuridique-prod', new CloudFormationClient({}))).toEqual(
      deployStarted,
    );
  });
});
