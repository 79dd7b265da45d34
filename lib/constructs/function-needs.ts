import type * as lambda from 'aws-cdk-lib/aws-lambda';

import type { FunctionName, FunctionNeeds } from '../../functions/needs';
import { NEEDS } from '../../functions/needs';
import { ENVIRONMENT } from '../../functions/runtime/environment';
import type { Api } from './api';
import type { AppKeys } from './app-keys';
import type { Billing } from './billing';
import type { DataExports } from './data-exports';
import type { DataTable } from './data-table';
import type { LawyerSecrets } from './lawyer-secrets';
import type { OriginVerify } from './origin-verify';
import type { WebhookDelivery } from './webhook-delivery';

/** The stack's resources a function may be granted, each by the need that names it. */
export interface NeedResources {
  readonly table: DataTable;
  readonly keys: AppKeys;
  readonly lawyerSecrets: LawyerSecrets;
  readonly originVerify: OriginVerify;
  readonly delivery: WebhookDelivery;
  readonly billing: Billing;
  /** The API: its portal-link sender, which request-portal-link invokes. */
  readonly api: Pick<Api, 'grantPortalLinks'>;
  readonly exports: DataExports;
  /** The site's public origin, for the functions that build Stripe return links or e-mail links. */
  readonly publicUrl: string;
  /** The admin's alert address of the deployment (`-c alertEmail`, else `alarmEmail`), if any. */
  readonly adminAlertEmail?: string;
}

/**
 * Grants a function exactly what `NEEDS[name]` declares, and sets exactly the environment
 * variables of those needs (`functions/runtime/environment.ts`): the only place the stack decides
 * what a function may touch. Nothing is granted for an undeclared need.
 */
export function grantNeeds(fn: lambda.Function, name: FunctionName, resources: NeedResources): void {
  const needs: FunctionNeeds = NEEDS[name];
  if (needs.table) resources.table.bindTable(fn, needs.table.access, needs.table.indexes);
  for (const key of needs.keys ?? []) resources.keys.grantRead(fn, key);
  if (needs.originSecret) resources.originVerify.grantRead(fn);
  if (needs.lawyerSecrets) resources.lawyerSecrets.grantReadWrite(fn);
  if (needs.webhookQueue === 'send') resources.delivery.grantDispatch(fn);
  if (needs.webhookQueue === 'redrive') resources.delivery.grantRedrive(fn);
  if (needs.webhookQueue === 'consume') resources.delivery.grantConsume(fn);
  if (needs.webhookSigning) resources.delivery.grantSigning(fn);
  if (needs.dueClaimers) resources.delivery.grantClaimers(fn);
  if (needs.portalLinks) resources.api.grantPortalLinks(fn);
  if (needs.payments) resources.billing.grantPayments(fn, resources.publicUrl, needs.payments);
  if (needs.mailer) resources.billing.grantMail(fn);
  // Links in the e-mails (the health alerts) and the completion-report links of the webhook bodies;
  // the payments need sets it already.
  if (!needs.payments && (needs.mailer || needs.webhookSigning))
    fn.addEnvironment(ENVIRONMENT.publicBaseUrl, resources.publicUrl);
  if (needs.relyingParty) fn.addEnvironment(ENVIRONMENT.siteUrl, resources.publicUrl);
  if (needs.adminAlerts && resources.adminAlertEmail)
    fn.addEnvironment(ENVIRONMENT.adminAlertEmail, resources.adminAlertEmail);
  if (needs.dataExports === 'request') resources.exports.grantRequest(fn);
  if (needs.dataExports === 'build') resources.exports.grantBuild(fn);
}
