import { CfnOutput, CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import type * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type { Construct } from 'constructs';

import { Api } from './constructs/api';
import { AppKeys } from './constructs/app-keys';
import { Billing } from './constructs/billing';
import { DataRetention } from './constructs/data-retention';
import { DataTable } from './constructs/data-table';
import { grantNeeds } from './constructs/function-needs';
import { LawyerSecrets } from './constructs/lawyer-secrets';
import { Monitoring } from './constructs/monitoring';
import { OriginVerify } from './constructs/origin-verify';
import { Site } from './constructs/site';
import { WebhookDelivery } from './constructs/webhook-delivery';
import { applyStageSettings, type StageSettings } from './settings';

export interface AssistantJuridiqueStackProps extends StackProps {
  /** Absolute path of the built SPA (it must contain `index.html`). */
  readonly siteDir: string;
  /** The stage's settings, checked (`lib/settings.ts`). */
  readonly settings: StageSettings;
  /**
   * What the stage's us-east-1 edge stack holds, when it has one (`lib/edge-stack.ts`): the
   * custom domain's certificate and the WAF web ACL.
   */
  readonly edge?: { readonly certificate?: acm.ICertificate; readonly webAclArn?: string };
}

/**
 * The whole product in one stack per stage. It only composes: each concern is one construct under
 * `lib/constructs/`.
 */
export class AssistantJuridiqueStack extends Stack {
  constructor(scope: Construct, id: string, props: AssistantJuridiqueStackProps) {
    // Cross-region references: the edge stack's certificate and web ACL live in us-east-1.
    super(scope, id, { ...props, crossRegionReferences: props.edge !== undefined });
    const { settings, edge } = props;
    // Strong: the edge stack's certificate and web ACL cannot be deleted while this stack uses
    // them (CDK keeps them in SSM parameters of this region through its export reader).
    if (edge) CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    if (settings.customDomain && !edge?.certificate) {
      throw new Error('AssistantJuridiqueStack: a custom domain needs the edge stack’s certificate');
    }
    if (settings.waf && !edge?.webAclArn) {
      throw new Error('AssistantJuridiqueStack: the WAF needs the edge stack’s web ACL');
    }
    applyStageSettings(this, settings);

    const data = new DataTable(this, 'Data', {
      removalPolicy: settings.removalPolicy,
      deletionProtection: settings.tableDeletionProtection,
    });
    const appKeys = new AppKeys(this, 'AppKeys', {
      removalPolicy: settings.removalPolicy,
      ...(settings.keysReplicaRegion ? { replicaRegion: settings.keysReplicaRegion } : {}),
    });
    const lawyerSecrets = new LawyerSecrets(this, 'LawyerSecrets');
    const originVerify = new OriginVerify(this, 'OriginVerify');
    const api = new Api(this, 'Api', {
      throttle: settings.apiThrottle,
      routeThrottles: settings.routeThrottles,
      accessLogRetention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    const delivery = new WebhookDelivery(this, 'WebhookDelivery', {
      workerConcurrency: settings.workerConcurrency,
    });
    // Spec §9: a lawyer's data goes 30 days after his subscription ended.
    const retention = new DataRetention(this, 'DataRetention');
    const monitoring = new Monitoring(this, 'Monitoring', {
      api,
      table: data,
      delivery,
      retention,
      alarmEmail: settings.alarmEmail,
      renotifyEvery: settings.renotifyEvery,
    });
    const site = new Site(this, 'Site', {
      siteDir: props.siteDir,
      httpApi: api.httpApi,
      apiOriginHeaders: originVerify.originHeader,
      // The privacy page names the region the data lives in: this stack's.
      config: { apiBaseUrl: '', hostingRegion: this.region },
      ...(settings.customDomain && edge?.certificate
        ? { customDomain: { domainName: settings.customDomain.domainName, certificate: edge.certificate } }
        : {}),
      ...(settings.waf && edge?.webAclArn ? { webAclArn: edge.webAclArn } : {}),
    });
    // Stripe keys, the SES sender and the site's address.
    const billing = new Billing(this, 'Billing', {
      mailFrom: settings.mailFrom,
      removalPolicy: settings.removalPolicy,
    });

    // What each function may touch: granted from its declaration in functions/needs.ts, and
    // from nothing else.
    const resources = {
      table: data,
      keys: appKeys,
      lawyerSecrets,
      originVerify,
      delivery,
      billing,
      publicUrl: site.url,
    };
    for (const [name, fn] of api.functions) grantNeeds(fn, name, resources);
    grantNeeds(delivery.tick, 'scheduled-tick', resources);
    grantNeeds(delivery.claimer, 'due-claimer', resources);
    grantNeeds(delivery.worker, 'webhook-worker', resources);
    grantNeeds(retention.purge, 'data-retention', resources);

    new CfnOutput(this, 'SiteUrl', {
      description: "L'adresse du site ; l'API y est servie sous /api",
      value: site.url,
    });
    if (settings.customDomain) {
      new CfnOutput(this, 'DistributionDomainName', {
        description: `Le nom CloudFront vers lequel faire pointer ${settings.customDomain.domainName} (CNAME ou alias)`,
        value: site.distribution.distributionDomainName,
      });
    }
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'Le sujet SNS des alarmes (docs/operations.md, « Alarmes »)',
      value: monitoring.topic.topicArn,
    });
    new CfnOutput(this, 'DashboardName', {
      description: 'Le tableau de bord CloudWatch des alarmes et des métriques',
      value: monitoring.dashboard.dashboardName,
    });
    new CfnOutput(this, 'WebhookSigningSecretArn', {
      description: 'Le secret de signature des webhooks, à copier dans n8n (docs/webhook-signature.md)',
      value: delivery.signingSecret.secretArn,
    });
    new CfnOutput(this, 'StripeSecretKeyArn', {
      description: 'Le secret de la clé API Stripe, à renseigner (docs/billing.md)',
      value: billing.stripeSecretKey.secretArn,
    });
    new CfnOutput(this, 'StripeWebhookSecretArn', {
      description: 'Le secret de signature du webhook Stripe, à renseigner (docs/billing.md)',
      value: billing.stripeWebhookSecret.secretArn,
    });
    new CfnOutput(this, 'TableName', { description: 'La table DynamoDB', value: data.tableName });
    new CfnOutput(this, 'LicenseHashKeySecretArn', {
      description: 'Le secret de la clé de hachage des licences (bin/create-admin-licence.ts --hash-key)',
      value: appKeys.secretArnOf('licenseHash'),
    });
    new CfnOutput(this, 'LicenseEncryptionKeySecretArn', {
      description:
        'Le secret de la clé de chiffrement des licences (bin/create-admin-licence.ts --encryption-key)',
      value: appKeys.secretArnOf('licenseEncryption'),
    });
    new CfnOutput(this, 'SessionSigningKeySecretArn', {
      description: 'Le secret de la clé de signature des sessions (rotation : docs/operations.md §7)',
      value: appKeys.secretArnOf('sessionSigning'),
    });
  }
}
