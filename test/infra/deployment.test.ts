import { readFileSync } from 'node:fs';

import type { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LIVE_ALIAS } from '../../lib/constructs/app-function';
import { repositoryPath } from '../../lib/constructs/repository';
import { BACKUP_RETENTION, copyVaultNameOf } from '../../lib/constructs/table-backup';
import type { Deployment } from '../../lib/deployment';
import { CLOUDFRONT_THRESHOLDS } from '../../lib/edge-alarms-stack';
import { readBenchCostUnits, synthesizedStacksOf } from '../../lib/offline-synthesis';
import {
  alarmRows,
  firmCostOf,
  generatedSection,
  idleCostOf,
  REFERENCE_FIRM,
  renderAlarmTable,
  renderCostTable,
  renderResourceCounts,
} from '../../lib/operations-figures';
import { DEFAULT_KEYS_REPLICA_REGION } from '../../lib/settings';
import { handlerNames } from '../../shared/routes';
import { createSiteFixture, createTestDeployment, PROD_CONTEXT, settingsFrom, TEST_ENV } from './support';

type Resource = {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string[];
};

/** The prod deployment as `cdk deploy --all` sees it: every stack of the stage. */
let prod: Deployment;
let stacks: Stack[];
let templates: Map<Stack, Record<string, Resource>>;
let removeSite: () => Promise<void>;
let siteDir: string;

beforeAll(async () => {
  const site = await createSiteFixture();
  removeSite = site.remove;
  siteDir = site.dir;
  prod = createTestDeployment(site.dir);
  stacks = [prod.recovery!, prod.stack, prod.edgeAlarms!];
  templates = new Map(stacks.map((stack) => [stack, Template.fromStack(stack).toJSON().Resources]));
});

afterAll(async () => {
  await removeSite();
});

const main = () => templates.get(prod.stack)!;
const ofType = (resources: Record<string, Resource>, type: string) =>
  Object.entries(resources).filter(([, resource]) => resource.Type === type);

describe('a first create that rolls back', () => {
  it('deletes whatever it created: nothing is retained by the operation that created it', () => {
    for (const [stack, resources] of templates) {
      for (const [id, resource] of Object.entries(resources)) {
        // Retain and Snapshot would leave the resource behind a failed first create.
        expect(['Delete', 'RetainExceptOnCreate', undefined], `${stack.stackName} ${id}`).toContain(
          resource.DeletionPolicy,
        );
      }
    }
    // Kept in prod on every later operation: the data, the keys, the secrets, the logs.
    for (const type of [
      'AWS::DynamoDB::Table',
      'AWS::SecretsManager::Secret',
      'AWS::S3::Bucket',
      'AWS::Logs::LogGroup',
      'AWS::Backup::BackupVault',
    ]) {
      for (const [id, resource] of ofType(main(), type)) {
        if (id.startsWith('OriginVerify')) continue;
        expect(resource.DeletionPolicy, id).toBe('RetainExceptOnCreate');
        expect(resource.UpdateReplacePolicy, id).toBe('Retain');
      }
    }
  });

  it('empties the buckets and lifts the table’s deletion protection first, and only then', () => {
    const [cleanupId, cleanup] = ofType(main(), 'Custom::FirstCreateCleanup')[0]!;
    // Called by CloudFormation on the rollback of its own creation only.
    expect(cleanup.DeletionPolicy).toBe('RetainExceptOnCreate');
    const [tableId] = ofType(main(), 'AWS::DynamoDB::Table')[0]!;
    const buckets = ofType(main(), 'AWS::S3::Bucket').map(([id]) => id);
    expect(buckets).toHaveLength(3);
    // Deleted before them: CloudFormation deletes dependents first.
    expect(cleanup.DependsOn).toEqual(expect.arrayContaining([tableId, ...buckets]));
    expect(cleanup.Properties.TableName).toEqual({ Ref: tableId });
    expect(cleanup.Properties.Buckets).toEqual(expect.arrayContaining(buckets.map((id) => ({ Ref: id }))));
    expect(cleanupId).toMatch(/^FirstCreateCleanup/);
  });

  it('gives every function a log group of the stack, so Lambda creates none outside it', () => {
    for (const [stack, resources] of templates) {
      const logGroups = new Set(ofType(resources, 'AWS::Logs::LogGroup').map(([id]) => id));
      for (const [id, fn] of ofType(resources, 'AWS::Lambda::Function')) {
        const logGroup = (fn.Properties.LoggingConfig as { LogGroup?: { Ref?: string } } | undefined)
          ?.LogGroup;
        expect(logGroups.has(logGroup?.Ref ?? ''), `${stack.stackName} ${id}`).toBe(true);
      }
    }
  });

  it('names nothing that a second attempt would find taken, but the recovery vault it deletes', () => {
    // A fixed name would collide only with a resource left behind; the recovery vault is empty
    // until the first backup, so the rollback deletes it too.
    const [, vault] = ofType(templates.get(prod.recovery!)!, 'AWS::Backup::BackupVault')[0]!;
    expect(vault.Properties.BackupVaultName).toBe(copyVaultNameOf(prod.stack.stackName));
    for (const type of ['AWS::DynamoDB::Table', 'AWS::SecretsManager::Secret', 'AWS::S3::Bucket']) {
      for (const [id, resource] of ofType(main(), type)) {
        expect(Object.keys(resource.Properties), id).not.toEqual(
          expect.arrayContaining([expect.stringMatching(/^(TableName|Name|BucketName)$/)]),
        );
      }
    }
  });

  it('gives every custom resource a service time-out, so a crashed handler fails the deployment in minutes', () => {
    for (const [stack, resources] of templates) {
      for (const [id, resource] of Object.entries(resources)) {
        if (!resource.Type.startsWith('Custom::') && resource.Type !== 'AWS::CloudFormation::CustomResource')
          continue;
        const seconds = Number(resource.Properties.ServiceTimeout);
        expect(seconds, `${stack.stackName} ${id}`).toBeGreaterThan(0);
        expect(seconds, `${stack.stackName} ${id}`).toBeLessThanOrEqual(15 * 60);
      }
    }
  });
});

describe('rollback', () => {
  it('publishes a version of every function behind its live alias, kept after an update', () => {
    const functions = ofType(main(), 'AWS::Lambda::Function').filter(
      ([, fn]) => fn.Properties.Runtime === 'nodejs22.x',
    );
    expect(functions.length).toBe(handlerNames().length + 9);
    const aliases = ofType(main(), 'AWS::Lambda::Alias');
    const versions = ofType(main(), 'AWS::Lambda::Version');
    for (const [id] of functions) {
      const alias = aliases.find(
        ([, a]) => JSON.stringify(a.Properties.FunctionName) === JSON.stringify({ Ref: id }),
      );
      expect(alias?.[1].Properties.Name, id).toBe(LIVE_ALIAS);
      const version = versions.find(
        ([, v]) => JSON.stringify(v.Properties.FunctionName) === JSON.stringify({ Ref: id }),
      );
      expect(version?.[1].DeletionPolicy, id).toBe('RetainExceptOnCreate');
      expect(alias?.[1].Properties.FunctionVersion, id).toEqual({ 'Fn::GetAtt': [version?.[0], 'Version'] });
    }
  });

  it('lets API Gateway invoke each API function’s alias with one permission per function, not per route', () => {
    const permissions = ofType(main(), 'AWS::Lambda::Permission').filter(
      ([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com',
    );
    expect(permissions).toHaveLength(handlerNames().length);
    const aliasIds = new Set(ofType(main(), 'AWS::Lambda::Alias').map(([id]) => id));
    for (const [id, permission] of permissions) {
      expect(aliasIds.has((permission.Properties.FunctionName as { Ref: string }).Ref), id).toBe(true);
    }
    for (const [, integration] of ofType(main(), 'AWS::ApiGatewayV2::Integration')) {
      expect(aliasIds.has((integration.Properties.IntegrationUri as { Ref: string }).Ref)).toBe(true);
    }
  });

  it('has every schedule, the queue and the asynchronous failure settings on the aliases', () => {
    const aliasIds = new Set(ofType(main(), 'AWS::Lambda::Alias').map(([id]) => id));
    for (const [id, schedule] of ofType(main(), 'AWS::Scheduler::Schedule')) {
      const arn = (schedule.Properties.Target as { Arn: unknown }).Arn;
      if (JSON.stringify(arn).includes('aws-sdk:cloudwatch')) continue;
      expect(aliasIds.has((arn as { Ref: string }).Ref), id).toBe(true);
    }
    const [, mapping] = ofType(main(), 'AWS::Lambda::EventSourceMapping')[0]!;
    expect(JSON.stringify(mapping.Properties.FunctionName)).toContain(`:${LIVE_ALIAS}`);
    const configs = ofType(main(), 'AWS::Lambda::EventInvokeConfig');
    expect(configs.length).toBe(6);
    for (const [id, config] of configs) {
      // The alias's name, read from its ARN at deployment.
      const qualifier = JSON.stringify(config.Properties.Qualifier);
      expect(
        [...aliasIds].some((alias) => qualifier.includes(`"${alias}"`)),
        id,
      ).toBe(true);
    }
  });
});

describe('secrets', () => {
  it('keeps the webhook signing secret every firm copied into n8n', () => {
    const signing = ofType(main(), 'AWS::SecretsManager::Secret').filter(([id]) =>
      id.startsWith('WebhookDeliverySigningSecret'),
    );
    expect(signing).toHaveLength(1);
    expect(signing[0]![1].DeletionPolicy).toBe('RetainExceptOnCreate');
  });

  it('creates no combined keys secret on a fresh stage, and reads one only when a pre-split stage names it', () => {
    expect(ofType(main(), 'AWS::SecretsManager::Secret').map(([id]) => id)).not.toContain(
      expect.stringMatching(/^AppKeysSecret[0-9A-F]{8}$/),
    );
    const legacyArn = `arn:aws:secretsmanager:eu-west-3:${TEST_ENV.account}:secret:AppKeysSecret-AbCdEf`;
    const migrating = createTestDeployment(siteDir, {
      settings: settingsFrom({ ...PROD_CONTEXT, legacyKeysSecretArn: legacyArn }),
    }).stack;
    const template = Template.fromStack(migrating);
    template.hasResourceProperties('Custom::AppKeys', { LegacySecretId: legacyArn });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: 'secretsmanager:GetSecretValue', Resource: legacyArn }),
        ]),
      },
    });
    expect(() => settingsFrom({ ...PROD_CONTEXT, legacyKeysSecretArn: 'AppKeysSecret' })).toThrow(
      /legacyKeysSecretArn must be a Secrets Manager secret ARN/,
    );
  });
});

describe('backups out of the region', () => {
  it('backs the table up daily, keeps 35 days and copies each backup to the keys’ replica region', () => {
    expect(BACKUP_RETENTION.toDays()).toBe(35);
    const [, plan] = ofType(main(), 'AWS::Backup::BackupPlan')[0]!;
    const [rule] = (plan.Properties.BackupPlan as { BackupPlanRule: Record<string, unknown>[] })
      .BackupPlanRule;
    expect(rule).toMatchObject({
      ScheduleExpression: 'cron(0 3 * * ? *)',
      Lifecycle: { DeleteAfterDays: 35 },
      CopyActions: [{ Lifecycle: { DeleteAfterDays: 35 } }],
    });
    const destination = JSON.stringify(
      (rule as { CopyActions: { DestinationBackupVaultArn: unknown }[] }).CopyActions[0]!
        .DestinationBackupVaultArn,
    );
    expect(destination).toContain(`:backup:${DEFAULT_KEYS_REPLICA_REGION}:`);
    expect(destination).toContain(copyVaultNameOf(prod.stack.stackName));
    const [tableId] = ofType(main(), 'AWS::DynamoDB::Table')[0]!;
    const [, selection] = ofType(main(), 'AWS::Backup::BackupSelection')[0]!;
    expect(JSON.stringify(selection.Properties)).toContain(tableId);
    expect(prod.recovery!.region).toBe(DEFAULT_KEYS_REPLICA_REGION);
    // The copy vault exists before the plan that names it.
    expect(prod.stack.dependencies).toContain(prod.recovery);
  });

  it('has no backup plan nor recovery stack in dev', () => {
    const dev = createTestDeployment(siteDir, {
      settings: settingsFrom({ mailFrom: 'licences@cabinet.example' }),
    });
    expect(dev.recovery).toBeUndefined();
    expect(dev.edgeAlarms).toBeUndefined();
    Template.fromStack(dev.stack).resourceCountIs('AWS::Backup::BackupPlan', 0);
  });

  it('lets a stage use a restored table instead of creating one (the restore drill)', () => {
    const drill = createTestDeployment(siteDir, {
      settings: settingsFrom({ mailFrom: 'licences@cabinet.example', tableName: 'restored-table' }),
    }).stack;
    const template = Template.fromStack(drill);
    template.resourceCountIs('AWS::DynamoDB::Table', 0);
    expect(JSON.stringify(template.toJSON())).toContain(':table/restored-table');
    template.hasResourceProperties('Custom::FirstCreateCleanup', { TableName: Match.absent() });
  });
});

describe('CloudFront’s alarms', () => {
  it('watch the distribution’s 5xx rate from us-east-1, with a topic of their own there', () => {
    const edge = prod.edgeAlarms!;
    expect(edge.region).toBe('us-east-1');
    const resources = templates.get(edge)!;
    const [topicId] = ofType(resources, 'AWS::SNS::Topic')[0]!;
    const [, alarm] = ofType(resources, 'AWS::CloudWatch::Alarm')[0]!;
    expect(alarm.Properties).toMatchObject({
      Threshold: CLOUDFRONT_THRESHOLDS.errorPercent,
      EvaluationPeriods: CLOUDFRONT_THRESHOLDS.periods,
      AlarmActions: [{ Ref: topicId }],
    });
    const metrics = JSON.stringify(alarm.Properties.Metrics);
    expect(metrics).toContain('5xxErrorRate');
    expect(metrics).toContain('"Value":"Global"');
    // Read from the stage's stack output, without a custom resource.
    expect(metrics).toContain('Fn::GetStackOutput');
    Template.fromStack(edge).hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: PROD_CONTEXT.alarmEmail,
    });
    expect(edge.dependencies).toContain(prod.stack);
  });
});

describe('docs/operations.md', () => {
  const runbook = () => readFileSync(repositoryPath('docs', 'operations.md'), 'utf8');

  it('states the alarms, resource counts and costs of the prod templates (npm run docs:operations writes them)', () => {
    const synthesized = synthesizedStacksOf(prod);
    const bench = readBenchCostUnits();
    expect(generatedSection(runbook(), 'alarms')).toBe(renderAlarmTable(alarmRows(synthesized)));
    expect(generatedSection(runbook(), 'resources')).toBe(renderResourceCounts(synthesized));
    expect(generatedSection(runbook(), 'idle-cost')).toBe(
      renderCostTable('prod stage at rest', idleCostOf(synthesized, bench)),
    );
    expect(generatedSection(runbook(), 'firm-cost')).toBe(
      renderCostTable('one firm', firmCostOf(bench, REFERENCE_FIRM)),
    );
  });

  it('says what to do first for every alarm of the table', () => {
    const todo = runbook().slice(runbook().indexOf('What to do first, per alarm'));
    for (const row of alarmRows(synthesizedStacksOf(prod))) {
      const family = row.alarm.replace(/^ApiLatencyP99-.+$/, 'ApiLatencyP99-<route>');
      expect(todo, row.alarm).toContain(`| \`${family}\` |`);
    }
  });

  it('pins every AWS command of the runbook to a region', () => {
    // Code blocks with their continued lines joined, and inline code.
    const blocks = [...runbook().matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
      m[1]!.replace(/\\\n\s*/g, ' '),
    );
    const inline = [...runbook().matchAll(/`([^`\n]*aws [^`\n]*)`/g)].map((m) => m[1]!);
    const commands = [...blocks, ...inline].flatMap((text) =>
      [...text.matchAll(/\baws [a-z0-9-]+ [a-z-]+[^\n|#]*/g)].map((m) => m[0]),
    );
    expect(commands.length).toBeGreaterThan(30);
    for (const command of commands) expect(command).toMatch(/--region [a-z]{2}-[a-z]+-\d/);
  });
});
