import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

import type { JoinedWrite } from '../../domain/directory/ports';
import { deleteLicenseItem, licenseRoleUpdate, putLicenseItem } from '../identity/licenses';
import { firstReplyPut } from '../table/first-replies';
import type { Table } from '../table/table';
import { auditEntryPut } from './audit';
import { pauseEndUpdate, pauseRecordUpdate } from './pause-record';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A write joining a change's transaction (its audit entry, a create's first reply...), as the table takes it. */
export function joinedItem(table: Table, write: JoinedWrite): TransactItem {
  if ('newLicense' in write) return { Put: putLicenseItem(table, write.newLicense) };
  if ('removedLicense' in write) return { Delete: deleteLicenseItem(table, write.removedLicense) };
  if ('licenseRole' in write) return { Update: licenseRoleUpdate(table, write.licenseRole) };
  if ('firstReply' in write) return firstReplyPut(table, write.firstReply);
  if ('automaticPause' in write) return { Update: pauseRecordUpdate(table, write.automaticPause) };
  if ('pauseEnded' in write) return { Update: pauseEndUpdate(table, write.pauseEnded) };
  return auditEntryPut(table, write.auditEntry);
}
