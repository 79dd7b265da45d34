import { BackupClient, DescribeRegionSettingsCommand } from '@aws-sdk/client-backup';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  GetAccountCommand,
  type GetAccountCommandOutput,
  GetEmailIdentityCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';

import { concurrencyNeedOf, DEFAULT_LAMBDA_CONCURRENCY_QUOTA, type StageSettings } from './settings';

/** One check's verdict: what was found and, when it fails, what to do, with the command. */
export interface CheckResult {
  readonly check: string;
  readonly ok: boolean;
  readonly message: string;
}

export interface PredeployReport {
  readonly results: readonly CheckResult[];
  readonly ok: boolean;
  /** The account's quota, for the concurrency alarm's threshold; undefined when it could not be read. */
  readonly lambdaConcurrencyQuota?: number;
}

export interface PredeployClients {
  readonly lambda: LambdaClient;
  readonly ses: SESv2Client;
  readonly backup: BackupClient;
}

/** The Service Quotas code of Lambda's concurrent executions. */
export const LAMBDA_CONCURRENCY_QUOTA_CODE = 'L-B99A9384';

/** Clients pinned to the stage's region, whatever the caller's profile says. */
export const predeployClients = (region: string): PredeployClients => ({
  lambda: new LambdaClient({ region }),
  ses: new SESv2Client({ region }),
  backup: new BackupClient({ region }),
});

/**
 * What a stage needs of the account before CloudFormation creates anything: a deployment that
 * lacks one of these goes through and then fails in production (throttled functions, licence
 * keys that never leave), so each is checked first and named with the command that fixes it.
 */
export async function runPredeployChecks(
  settings: StageSettings,
  clients: PredeployClients,
): Promise<PredeployReport> {
  const concurrency = await checkLambdaConcurrency(settings, clients.lambda);
  const results = [
    concurrency.result,
    await checkSesIdentity(settings, clients.ses),
    ...(await checkSesAccount(settings, clients.ses)),
    ...(settings.backup && settings.keysReplicaRegion
      ? [await checkBackupSettings(settings, clients.backup)]
      : []),
  ];
  return {
    results,
    ok: results.every((result) => result.ok),
    ...(concurrency.quota !== undefined ? { lambdaConcurrencyQuota: concurrency.quota } : {}),
  };
}

async function checkLambdaConcurrency(
  settings: StageSettings,
  lambda: LambdaClient,
): Promise<{ result: CheckResult; quota?: number }> {
  const check = 'Lambda concurrency';
  const need = concurrencyNeedOf(settings);
  const { region } = settings;
  let quota: number | undefined;
  let unreserved: number | undefined;
  try {
    const { AccountLimit } = await lambda.send(new GetAccountSettingsCommand({}));
    quota = AccountLimit?.ConcurrentExecutions;
    unreserved = AccountLimit?.UnreservedConcurrentExecutions ?? quota;
  } catch (error) {
    return { result: unreadable(check, error, 'lambda:GetAccountSettings', region) };
  }
  if (quota === undefined || unreserved === undefined) {
    return { result: { check, ok: false, message: `Lambda returned no concurrency limit for ${region}.` } };
  }
  const needs =
    `stage ${settings.stage} needs ${need.total} (worker ${need.worker} + claimers ${need.claimers} + ` +
    `API ${need.api})`;
  if (unreserved >= need.total) {
    return {
      result: {
        check,
        ok: true,
        message: `${unreserved} of ${quota} concurrent executions free in ${region}; ${needs}.`,
      },
      quota,
    };
  }
  const ask = Math.max(need.total, DEFAULT_LAMBDA_CONCURRENCY_QUOTA);
  return {
    result: {
      check,
      ok: false,
      message:
        `The account may run ${unreserved} Lambda executions at once in ${region} (quota ${quota}); ${needs}. ` +
        'Below that the worker and the minute tick are throttled from the first day. Ask for more: ' +
        `aws service-quotas request-service-quota-increase --service-code lambda --quota-code ` +
        `${LAMBDA_CONCURRENCY_QUOTA_CODE} --desired-value ${ask} --region ${region} ` +
        '(a new account may wait a few days), then deploy again.',
    },
    quota,
  };
}

async function checkSesIdentity(settings: StageSettings, ses: SESv2Client): Promise<CheckResult> {
  const check = 'SES sender identity';
  const { mailFrom, region } = settings;
  const domain = mailFrom.split('@')[1] as string;
  const found: string[] = [];
  for (const identity of [mailFrom, domain]) {
    try {
      const reply = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
      if (reply.VerifiedForSendingStatus) {
        return { check, ok: true, message: `${identity} is verified for sending in ${region}.` };
      }
      found.push(`${identity} (${reply.VerificationStatus ?? 'not verified'})`);
    } catch (error) {
      if (error instanceof Error && error.name === 'NotFoundException') continue;
      return unreadable(check, error, 'ses:GetEmailIdentity', region);
    }
  }
  const state =
    found.length > 0
      ? `${found.join(' and ')} not verified yet`
      : `neither ${mailFrom} nor ${domain} is an identity`;
  return {
    check,
    ok: false,
    message:
      `SES in ${region}: ${state}, so no licence key could be e-mailed. Verify the domain: ` +
      `aws sesv2 create-email-identity --email-identity ${domain} --region ${region}, add the three ` +
      `DKIM CNAME records it prints to the domain's DNS, and wait until ` +
      `aws sesv2 get-email-identity --email-identity ${domain} --region ${region} says ` +
      '"VerifiedForSendingStatus": true.',
  };
}

async function checkSesAccount(settings: StageSettings, ses: SESv2Client): Promise<CheckResult[]> {
  const { region } = settings;
  let account: GetAccountCommandOutput;
  try {
    account = await ses.send(new GetAccountCommand({}));
  } catch (error) {
    return [unreadable('SES account', error, 'ses:GetAccount', region)];
  }
  const results: CheckResult[] = [];
  if (account.SendingEnabled === false) {
    results.push({
      check: 'SES sending',
      ok: false,
      message:
        `SES sending is paused for the account in ${region} (usually for its bounce or complaint rate): ` +
        'read the reason in the SES console (Reputation metrics), fix it, then ' +
        `aws sesv2 put-account-sending-attributes --sending-enabled --region ${region}.`,
    });
  }
  if (settings.stage === 'prod') {
    results.push(
      account.ProductionAccessEnabled
        ? {
            check: 'SES production access',
            ok: true,
            message: `The account left the SES sandbox in ${region}.`,
          }
        : {
            check: 'SES production access',
            ok: false,
            message:
              `SES is in the sandbox in ${region}: it writes only to verified addresses, so a buyer would ` +
              'never get his licence key. Ask for production access: aws sesv2 put-account-details ' +
              '--production-access-enabled --mail-type TRANSACTIONAL --website-url <site address> ' +
              `--use-case-description "Licence keys and billing e-mails to our customers" --region ${region} ` +
              '(AWS answers within a day), then deploy again.',
          },
    );
  }
  const suppressed = new Set(account.SuppressionAttributes?.SuppressedReasons ?? []);
  results.push(
    suppressed.has('BOUNCE') && suppressed.has('COMPLAINT')
      ? {
          check: 'SES suppression list',
          ok: true,
          message: `Bounces and complaints are suppressed account-wide in ${region}.`,
        }
      : {
          check: 'SES suppression list',
          ok: false,
          message:
            `The account's SES suppression list does not cover bounces and complaints in ${region}: every ` +
            'send to a dead address would count against the reputation. Turn it on: ' +
            `aws sesv2 put-account-suppression-attributes --suppressed-reasons BOUNCE COMPLAINT --region ${region}.`,
        },
  );
  return results;
}

async function checkBackupSettings(settings: StageSettings, backup: BackupClient): Promise<CheckResult> {
  const check = 'AWS Backup for DynamoDB';
  const { region } = settings;
  try {
    const reply = await backup.send(new DescribeRegionSettingsCommand({}));
    const optedIn = reply.ResourceTypeOptInPreference?.DynamoDB === true;
    const advanced = reply.ResourceTypeManagementPreference?.DynamoDB === true;
    if (optedIn && advanced) {
      return {
        check,
        ok: true,
        message: `AWS Backup manages DynamoDB in ${region}, copies to ${settings.keysReplicaRegion} allowed.`,
      };
    }
    return {
      check,
      ok: false,
      message:
        `AWS Backup in ${region} ${optedIn ? 'has not the advanced DynamoDB features' : 'does not back up DynamoDB'}: ` +
        `the table's daily backups could not be copied to ${settings.keysReplicaRegion}. Turn them on: ` +
        'aws backup update-region-settings --resource-type-opt-in-preference DynamoDB=true ' +
        `--resource-type-management-preference DynamoDB=true --region ${region}.`,
    };
  } catch (error) {
    return unreadable(check, error, 'backup:DescribeRegionSettings', region);
  }
}

function unreadable(check: string, error: unknown, action: string, region: string): CheckResult {
  const name = error instanceof Error ? error.name : 'error';
  return {
    check,
    ok: false,
    message:
      `Could not ask AWS (${action} in ${region}): ${name}. Run the deployment with credentials of the ` +
      `target account that may call ${action}.`,
  };
}

/**
 * The `-c key=value` (or `--context key=value`) pairs of a command line, as the CDK CLI reads
 * them, so that the checks see the settings `cdk deploy` will.
 */
export function contextOf(args: readonly string[]): Record<string, string> {
  const context: Record<string, string> = {};
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    const inline = arg.match(/^(?:-c|--context)=(.*)$/);
    const pair = inline ? inline[1] : arg === '-c' || arg === '--context' ? args[++index] : undefined;
    if (pair === undefined) continue;
    const equals = pair.indexOf('=');
    if (equals > 0) context[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return context;
}

/** Runs the checks in the stage's region and prints each verdict; exits 1 when one fails. */
export async function checkStageOrExit(settings: StageSettings, onFailure: string): Promise<PredeployReport> {
  const report = await runPredeployChecks(settings, predeployClients(settings.region));
  for (const result of report.results)
    console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.check}: ${result.message}`);
  if (!report.ok) {
    console.error(`\n${settings.stackName} (${settings.region}): ${onFailure}.`);
    process.exit(1);
  }
  return report;
}
