import { BackupClient, DescribeRegionSettingsCommand } from '@aws-sdk/client-backup';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  GetAccountCommand,
  GetEmailIdentityCommand,
  NotFoundException,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';

import { contextOf, runPredeployChecks } from '../../lib/predeploy-checks';
import { concurrencyNeedOf } from '../../lib/settings';
import { PROD_CONTEXT, settingsFrom } from './support';

const lambda = mockClient(LambdaClient);
const ses = mockClient(SESv2Client);
const backup = mockClient(BackupClient);
const clients = () => ({
  lambda: new LambdaClient({ region: 'eu-west-3' }),
  ses: new SESv2Client({ region: 'eu-west-3' }),
  backup: new BackupClient({ region: 'eu-west-3' }),
});
const prod = settingsFrom(PROD_CONTEXT);
const dev = settingsFrom({ mailFrom: PROD_CONTEXT.mailFrom });

/** An account ready for prod: what AWS answers once the runbook's first steps are done. */
function readyAccount() {
  lambda.on(GetAccountSettingsCommand).resolves({
    AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 1000 },
  });
  ses
    .on(GetEmailIdentityCommand, { EmailIdentity: 'licences@cabinet.example' })
    .rejects(new NotFoundException({ message: 'not found', $metadata: {} }));
  ses.on(GetEmailIdentityCommand, { EmailIdentity: 'cabinet.example' }).resolves({
    VerifiedForSendingStatus: true,
    VerificationStatus: 'SUCCESS',
  });
  ses.on(GetAccountCommand).resolves({
    ProductionAccessEnabled: true,
    SendingEnabled: true,
    SuppressionAttributes: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
  });
  backup.on(DescribeRegionSettingsCommand).resolves({
    ResourceTypeOptInPreference: { DynamoDB: true },
    ResourceTypeManagementPreference: { DynamoDB: true },
  });
}

const failed = (report: Awaited<ReturnType<typeof runPredeployChecks>>) =>
  report.results.filter((result) => !result.ok);

beforeEach(() => {
  lambda.reset();
  ses.reset();
  backup.reset();
  readyAccount();
});

describe('pre-deploy checks', () => {
  it('pass on an account ready for prod, and hand the quota to the concurrency alarm', async () => {
    const report = await runPredeployChecks(prod, clients());
    expect(failed(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.lambdaConcurrencyQuota).toBe(1000);
    expect(report.results.map((result) => result.check)).toEqual([
      'Lambda concurrency',
      'SES sender identity',
      'SES production access',
      'SES suppression list',
      'AWS Backup for DynamoDB',
    ]);
  });

  it('refuse a new account’s concurrency, saying what prod needs and the command that asks for more', async () => {
    lambda.on(GetAccountSettingsCommand).resolves({
      AccountLimit: { ConcurrentExecutions: 10, UnreservedConcurrentExecutions: 10 },
    });
    const report = await runPredeployChecks(prod, clients());
    const need = concurrencyNeedOf(prod);
    expect(need).toEqual({ worker: 500, claimers: 64, api: 100, total: 664 });
    expect(report.ok).toBe(false);
    expect(failed(report)).toHaveLength(1);
    expect(failed(report)[0]!.message).toBe(
      'The account may run 10 Lambda executions at once in eu-west-3 (quota 10); stage prod needs 664 ' +
        '(worker 500 + claimers 64 + API 100). Below that the worker and the minute tick are throttled from ' +
        'the first day. Ask for more: aws service-quotas request-service-quota-increase --service-code lambda ' +
        '--quota-code L-B99A9384 --desired-value 1000 --region eu-west-3 (a new account may wait a few days), ' +
        'then deploy again.',
    );
  });

  it('count concurrency reserved by other functions of the account as taken', async () => {
    lambda.on(GetAccountSettingsCommand).resolves({
      AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 600 },
    });
    const [concurrency] = (await runPredeployChecks(prod, clients())).results;
    expect(concurrency).toMatchObject({ ok: false });
    expect(concurrency!.message).toContain('may run 600 Lambda executions at once in eu-west-3 (quota 1000)');
  });

  it('refuse a sender whose address and domain are not verified, with the commands to verify the domain', async () => {
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'cabinet.example' }).resolves({
      VerifiedForSendingStatus: false,
      VerificationStatus: 'PENDING',
    });
    const [identity] = failed(await runPredeployChecks(prod, clients()));
    expect(identity).toEqual({
      check: 'SES sender identity',
      ok: false,
      message:
        'SES in eu-west-3: cabinet.example (PENDING) not verified yet, so no licence key could be e-mailed. ' +
        'Verify the domain: aws sesv2 create-email-identity --email-identity cabinet.example --region ' +
        "eu-west-3, add the three DKIM CNAME records it prints to the domain's DNS, and wait until aws sesv2 " +
        'get-email-identity --email-identity cabinet.example --region eu-west-3 says "VerifiedForSendingStatus": true.',
    });
  });

  it('accept a sender address verified on its own', async () => {
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'licences@cabinet.example' }).resolves({
      VerifiedForSendingStatus: true,
    });
    ses
      .on(GetEmailIdentityCommand, { EmailIdentity: 'cabinet.example' })
      .rejects(new NotFoundException({ message: 'not found', $metadata: {} }));
    expect(failed(await runPredeployChecks(prod, clients()))).toEqual([]);
  });

  it('refuse prod in the SES sandbox, and tell how to ask for production access; dev may stay there', async () => {
    ses.on(GetAccountCommand).resolves({
      ProductionAccessEnabled: false,
      SendingEnabled: true,
      SuppressionAttributes: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
    const [sandbox] = failed(await runPredeployChecks(prod, clients()));
    expect(sandbox!.check).toBe('SES production access');
    expect(sandbox!.message).toContain(
      'SES is in the sandbox in eu-west-3: it writes only to verified addresses',
    );
    expect(sandbox!.message).toContain('aws sesv2 put-account-details --production-access-enabled');
    expect(failed(await runPredeployChecks(dev, clients()))).toEqual([]);
  });

  it('refuse an account whose suppression list is off, and an account whose sending is paused', async () => {
    ses.on(GetAccountCommand).resolves({
      ProductionAccessEnabled: true,
      SendingEnabled: false,
      SuppressionAttributes: { SuppressedReasons: ['BOUNCE'] },
    });
    const problems = failed(await runPredeployChecks(prod, clients()));
    expect(problems.map((problem) => problem.check)).toEqual(['SES sending', 'SES suppression list']);
    expect(problems[1]!.message).toContain(
      'aws sesv2 put-account-suppression-attributes --suppressed-reasons BOUNCE COMPLAINT --region eu-west-3',
    );
  });

  it('refuse prod when AWS Backup cannot copy DynamoDB backups to the replica region', async () => {
    backup.on(DescribeRegionSettingsCommand).resolves({
      ResourceTypeOptInPreference: { DynamoDB: true },
      ResourceTypeManagementPreference: { DynamoDB: false },
    });
    const [copies] = failed(await runPredeployChecks(prod, clients()));
    expect(copies!.message).toContain('could not be copied to eu-central-1');
    expect(copies!.message).toContain(
      'aws backup update-region-settings --resource-type-opt-in-preference DynamoDB=true ' +
        '--resource-type-management-preference DynamoDB=true --region eu-west-3',
    );
    // Dev has no backup plan: nothing to check.
    expect((await runPredeployChecks(dev, clients())).results.map((r) => r.check)).not.toContain(
      'AWS Backup for DynamoDB',
    );
  });

  it('say which permission is missing when AWS refuses to answer', async () => {
    const denied = Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
    lambda.on(GetAccountSettingsCommand).rejects(denied);
    const report = await runPredeployChecks(prod, clients());
    expect(report.lambdaConcurrencyQuota).toBeUndefined();
    expect(failed(report)[0]!.message).toBe(
      'Could not ask AWS (lambda:GetAccountSettings in eu-west-3): AccessDeniedException. Run the deployment ' +
        'with credentials of the target account that may call lambda:GetAccountSettings.',
    );
  });

  it('read the same -c flags as cdk deploy', () => {
    expect(
      contextOf([
        '-c',
        'stage=prod',
        '--context',
        'mailFrom=a@b.example',
        '-c=alarmEmail=o@b.example',
        '--all',
      ]),
    ).toEqual({ stage: 'prod', mailFrom: 'a@b.example', alarmEmail: 'o@b.example' });
  });
});
