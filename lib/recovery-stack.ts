import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type { Construct } from 'constructs';

import { copyVaultNameOf } from './constructs/table-backup';
import type { StageSettings } from './settings';

export interface RecoveryStackProps extends StackProps {
  readonly settings: StageSettings;
}

/**
 * The stage's second region (the server keys' replica region): the vault that receives the daily
 * copy of the table's backups. Deployed before the stage's stack, whose backup plan names it.
 */
export class AssistantJuridiqueRecoveryStack extends Stack {
  readonly vault: backup.BackupVault;

  constructor(scope: Construct, id: string, props: RecoveryStackProps) {
    super(scope, id, props);
    this.vault = new backup.BackupVault(this, 'CopyVault', {
      backupVaultName: copyVaultNameOf(props.settings.stackName),
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
  }
}
