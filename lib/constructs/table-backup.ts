import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** How long each daily backup, and each of its copies, is kept. */
export const BACKUP_RETENTION = Duration.days(35);

/** The copy vault's name in the second region: fixed, so that the plan can name it without a lookup. */
export const copyVaultNameOf = (stackName: string): string => `${stackName}-copies`;

export interface TableBackupProps {
  readonly table: dynamodb.ITable;
  /** The region of the copy vault (the recovery stack's), if the stage has one. */
  readonly copyRegion?: string;
  /** @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * A daily AWS Backup of the table, kept 35 days and copied to the second region: point-in-time
 * recovery stays in the table's region and would go with it.
 */
export class TableBackup extends Construct {
  readonly vault: backup.BackupVault;
  readonly plan: backup.BackupPlan;
  readonly copyVaultArn?: string;

  constructor(scope: Construct, id: string, props: TableBackupProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.vault = new backup.BackupVault(this, 'Vault', {
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    this.copyVaultArn = props.copyRegion
      ? stack.formatArn({
          service: 'backup',
          region: props.copyRegion,
          resource: 'backup-vault',
          resourceName: copyVaultNameOf(stack.stackName),
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        })
      : undefined;
    this.plan = new backup.BackupPlan(this, 'Plan', { backupVault: this.vault });
    this.plan.addRule(
      new backup.BackupPlanRule({
        ruleName: 'Quotidienne',
        // 03:00 UTC, outside the firms' working hours.
        scheduleExpression: events.Schedule.cron({ hour: '3', minute: '0' }),
        deleteAfter: BACKUP_RETENTION,
        copyActions: this.copyVaultArn
          ? [
              {
                destinationBackupVault: backup.BackupVault.fromBackupVaultArn(
                  this,
                  'CopyVault',
                  this.copyVaultArn,
                ),
                deleteAfter: BACKUP_RETENTION,
              },
            ]
          : [],
      }),
    );
    const selection = this.plan.addSelection('Table', {
      resources: [backup.BackupResource.fromDynamoDbTable(props.table)],
    });
    if (this.copyVaultArn) {
      selection.grantPrincipal.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: ['backup:CopyIntoBackupVault'], resources: [this.copyVaultArn] }),
      );
    }
    NagSuppressions.addResourceSuppressions(
      selection,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason:
            'AWS Backup’s own service-role policy for taking backups (AWSBackupServiceRolePolicyForBackup), ' +
            'which AWS keeps current with the services it backs up; the selection names the table alone.',
          appliesTo: [
            'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup',
          ],
        },
      ],
      true,
    );
  }
}
