import { CfnOutput } from 'aws-cdk-lib';
import { Construct } from 'constructs';

import type { AppKeys } from './app-keys';
import type { Billing } from './billing';
import type { DataTable } from './data-table';
import type { Monitoring } from './monitoring';
import type { Site } from './site';
import type { WebhookDelivery } from './webhook-delivery';

export interface StackOutputsProps {
  readonly site: Site;
  /** The custom domain, whose DNS must point at the distribution. */
  readonly customDomainName?: string;
  readonly monitoring: Monitoring;
  readonly delivery: WebhookDelivery;
  readonly billing: Billing;
  readonly data: DataTable;
  readonly appKeys: AppKeys;
  /** The API's own domain, when it has one: its DNS must point at the regional name. */
  readonly apiOrigin?: { readonly domainName: string; readonly regionalDomainName?: string };
}

/**
 * What an operator reads after a deployment (docs/operations.md names each): ids of the stack,
 * so that the runbook's commands never depend on a generated name.
 */
export class StackOutputs extends Construct {
  constructor(scope: Construct, id: string, props: StackOutputsProps) {
    super(scope, id);
    const { site, monitoring, delivery, billing, data, appKeys } = props;
    const output = (name: string, description: string, value: string) =>
      // Scoped to the stack, so the output names stay what the runbook and scripts read.
      new CfnOutput(scope, name, { description, value });

    output('SiteUrl', "L'adresse du site ; l'API y est servie sous /api", site.url);
    if (props.customDomainName) {
      output(
        'DistributionDomainName',
        `Le nom CloudFront vers lequel faire pointer ${props.customDomainName} (CNAME ou alias)`,
        site.distribution.distributionDomainName,
      );
    }
    if (props.apiOrigin?.regionalDomainName) {
      output(
        'ApiDomainTarget',
        `Le nom régional vers lequel faire pointer ${props.apiOrigin.domainName} (CNAME), l'API n'ayant plus d'adresse execute-api`,
        props.apiOrigin.regionalDomainName,
      );
    }
    output(
      'AlarmTopicArn',
      'Le sujet SNS des alarmes (docs/operations.md, « Alarmes »)',
      monitoring.topic.topicArn,
    );
    output(
      'DashboardName',
      'Le tableau de bord CloudWatch des alarmes et des métriques',
      monitoring.dashboard.dashboardName,
    );
    output(
      'WebhookSigningSecretArn',
      'Le secret de signature des webhooks, à copier dans n8n (docs/webhook-signature.md)',
      delivery.signingSecret.secretArn,
    );
    output(
      'StripeSecretKeyArn',
      'Le secret de la clé API Stripe, à renseigner (docs/billing.md)',
      billing.stripeSecretKey.secretArn,
    );
    output(
      'StripeWebhookSecretArn',
      'Le secret de signature du webhook Stripe, à renseigner (docs/billing.md)',
      billing.stripeWebhookSecret.secretArn,
    );
    output('TableName', 'La table DynamoDB', data.tableName);
    output(
      'LicenseHashKeySecretArn',
      'Le secret de la clé de hachage des licences (bin/create-admin-licence.ts --hash-key)',
      appKeys.secretArnOf('licenseHash'),
    );
    output(
      'LicenseEncryptionKeySecretArn',
      'Le secret de la clé de chiffrement des licences (bin/create-admin-licence.ts --encryption-key)',
      appKeys.secretArnOf('licenseEncryption'),
    );
    output(
      'SessionSigningKeySecretArn',
      'Le secret de la clé de signature des sessions (rotation : docs/operations.md)',
      appKeys.secretArnOf('sessionSigning'),
    );
  }
}
