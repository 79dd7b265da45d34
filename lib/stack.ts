import { CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type { Construct } from 'constructs';
import { routeKey } from '../shared/routes';
import { Api } from './constructs/api';
import { AppKeys } from './constructs/app-keys';
import { Billing } from './constructs/billing';
import { DataExports } from './constructs/data-exports';
import { DataRetention } from './constructs/data-retention';
import { DataTable } from './constructs/data-table';
import { FirstCreateCleanup } from './constructs/first-create-cleanup';
import { grantNeeds } from './constructs/function-needs';
import { LawyerSecrets } from './constructs/lawyer-secrets';
import { MailDelivery } from './constructs/mail-delivery';
import { interactiveRoutes, Monitoring } from './constructs/monitoring';
import { OriginVerify } from './constructs/origin-verify';
import { Site } from './constructs/site';
import { StackOutputs } from './constructs/stack-outputs';
import { TableBackup } from './constructs/table-backup';
import { UndeliveredMailRecorder } from './constructs/undelivered-mail';
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
  /** Whether a stack of another region reads this one's values (the CloudFront alarms). */
  readonly exportsAcrossRegions?: boolean;
}

/**
 * The whole product in one stack per stage. It only composes: each concern is one construct under
 * `lib/constructs/`.
 */
export class AssistantJuridiqueStack extends Stack {
  readonly site: Site;

  constructor(scope: Construct, id: string, props: AssistantJuridiqueStackProps) {
    // Cross-region references: the edge stack's certificate and web ACL live in us-east-1.
    super(scope, id, {
      ...props,
      crossRegionReferences: props.edge !== undefined || props.exportsAcrossRegions === true,
    });
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
      ...(settings.existingTableName ? { existingTableName: settings.existingTableName } : {}),
    });
    const appKeys = new AppKeys(this, 'AppKeys', {
      removalPolicy: settings.removalPolicy,
      ...(settings.keysReplicaRegion ? { replicaRegion: settings.keysReplicaRegion } : {}),
      ...(settings.legacyKeysSecretArn ? { legacySecretArn: settings.legacyKeysSecretArn } : {}),
    });
    const lawyerSecrets = new LawyerSecrets(this, 'LawyerSecrets');
    const originVerify = new OriginVerify(this, 'OriginVerify');
    // With a custom domain, the API gets its own (its certificate in this region, validated as
    // the site's is) and the execute-api address is switched off: CloudFront's secret path key is
    // then the only way in (docs/security-and-sessions.md, "Sign-in capacity").
    const apiOwnDomain = settings.apiOriginDomainName
      ? {
          domainName: settings.apiOriginDomainName,
          certificate: new acm.Certificate(this, 'ApiCertificate', {
            domainName: settings.apiOriginDomainName,
            validation: acm.CertificateValidation.fromDns(),
          }),
          pathKey: originVerify.pathKeyValue,
        }
      : undefined;
    const api = new Api(this, 'Api', {
      throttle: settings.apiThrottle,
      routeThrottles: settings.routeThrottles,
      detailedMetricsRoutes: interactiveRoutes().map(([, route]) => routeKey(route)),
      accessLogRetention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
      ...(apiOwnDomain ? { ownDomain: apiOwnDomain } : {}),
    });
    const delivery = new WebhookDelivery(this, 'WebhookDelivery', {
      workerConcurrency: settings.workerConcurrency,
      removalPolicy: settings.removalPolicy,
    });
    // Spec §9: a lawyer's data goes 30 days after his subscription ended.
    const retention = new DataRetention(this, 'DataRetention');
    const mail = new MailDelivery(this, 'MailDelivery');
    const undelivered = new UndeliveredMailRecorder(this, 'UndeliveredMail', { mail });
    // 'Exporter mes données': the exports bucket (objects kept a day) and the builder.
    const exports = new DataExports(this, 'DataExports', { removalPolicy: settings.removalPolicy });
    const monitoring = new Monitoring(this, 'Monitoring', {
      api,
      table: data,
      delivery,
      retention,
      otherFunctions: [undelivered.recorder, exports.builder],
      otherAlarms: undelivered.alarms,
      alarmEmail: settings.alarmEmail,
      renotifyEvery: settings.renotifyEvery,
      webhookQueueOldestSeconds: settings.webhookQueueOldestSeconds,
      lambdaConcurrencyQuota: settings.lambdaConcurrencyQuota,
    });
    const site = new Site(this, 'Site', {
      siteDir: props.siteDir,
      apiOrigin: api.origin,
      apiOriginHeaders: originVerify.originHeader,
      // The privacy page names the region the data lives in: this stack's.
      config: { apiBaseUrl: '', hostingRegion: this.region, legal: settings.legalDetails },
      ...(settings.customDomain && edge?.certificate
        ? { customDomain: { domainName: settings.customDomain.domainName, certificate: edge.certificate } }
        : {}),
      ...(settings.waf && edge?.webAclArn ? { webAclArn: edge.webAclArn } : {}),
    });
    this.site = site;
    const billing = new Billing(this, 'Billing', {
      mailFrom: settings.mailFrom,
      legalDetails: settings.legalDetails,
      removalPolicy: settings.removalPolicy,
      mail,
    });
    if (settings.backup) {
      new TableBackup(this, 'Backup', {
        table: data.table,
        removalPolicy: settings.removalPolicy,
        ...(settings.keysReplicaRegion ? { copyRegion: settings.keysReplicaRegion } : {}),
      });
    }
    new FirstCreateCleanup(this, 'FirstCreateCleanup', {
      buckets: [site.bucket, site.accessLogs, exports.bucket],
      ...(data.ownTable ? { table: data.ownTable } : {}),
    });

    // What each function may touch: granted from its declaration in functions/needs.ts only.
    const resources = {
      table: data,
      keys: appKeys,
      lawyerSecrets,
      originVerify,
      delivery,
      billing,
      api,
      exports,
      publicUrl: site.url,
      ...(settings.adminAlertEmail ? { adminAlertEmail: settings.adminAlertEmail } : {}),
    };
    for (const [name, fn] of api.functions) grantNeeds(fn, name, resources);
    grantNeeds(api.portalLinkSender, 'portal-link-sender', resources);
    grantNeeds(delivery.tick, 'scheduled-tick', resources);
    grantNeeds(delivery.claimer, 'due-claimer', resources);
    grantNeeds(delivery.worker, 'webhook-worker', resources);
    grantNeeds(retention.purge, 'data-retention', resources);
    grantNeeds(undelivered.recorder, 'undelivered-mail', resources);
    grantNeeds(exports.builder, 'data-export-builder', resources);

    new StackOutputs(this, 'Outputs', {
      site,
      ...(settings.customDomain ? { customDomainName: settings.customDomain.domainName } : {}),
      monitoring,
      delivery,
      billing,
      data,
      appKeys,
      apiOrigin: api.origin,
    });
  }
}
