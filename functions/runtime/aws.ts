import type { MailPorts } from '../domain/core/ports';
import { type FunctionName, type FunctionNeeds, NEEDS, type ServerKeyName } from '../needs';
import { type AppKeys, parseServerKey } from '../security/app-keys';
import type { BillingPorts } from './billing-ports';
import { type AppDependencies, relyingPartyOf, systemClock } from './dependencies';
import { type Environment, KEY_VARIABLES, variable } from './environment';
import { powertoolsLogger, powertoolsMetrics, tracer } from './powertools';

/**
 * Where a part is not built: `declaredDependencies` refuses an undeclared use before it reaches
 * this, so touching it is a bug of this file, named.
 */
const notBuilt = <T extends object>(what: string): T =>
  new Proxy({} as T, {
    get: () => {
      throw new Error(`Composition AWS : ${what} non construit`);
    },
  });

/**
 * The AWS composition root of one function: builds only the adapters its needs declare, each behind a
 * `BUNDLED_NEED_…` constant the bundler sets, so esbuild drops the others and their client libraries.
 */
export async function awsDependencies(fn: FunctionName, env: Environment): Promise<AppDependencies> {
  const needs: FunctionNeeds = NEEDS[fn];
  // Secrets go through Powertools Parameters (kept SECRET_MAX_AGE_SECONDS, so a rotated secret is
  // picked up without a deployment); a failed read is counted and logged by `cachedSecret`.
  let readSecret:
    | (<T>(name: string, arn: string, parse: (value: string) => T) => () => Promise<T>)
    | undefined;
  if (process.env.BUNDLED_NEED_SECRETS ?? true) {
    const [{ SecretsManagerClient }, { SecretsProvider }, { cachedSecret }] = await Promise.all([
      import('@aws-sdk/client-secrets-manager'),
      import('@aws-lambda-powertools/parameters/secrets'),
      import('./cached-secret'),
    ]);
    const client = tracer.captureAWSv3Client(new SecretsManagerClient({}));
    const reading = {
      provider: new SecretsProvider({ awsSdkV3Client: client }),
      metrics: powertoolsMetrics,
      logger: powertoolsLogger,
    };
    readSecret = (name, arn, parse) => cachedSecret(reading, name, () => arn, parse);
  }
  const secret = <T>(name: string, arn: string, parse: (value: string) => T) => {
    if (!readSecret) throw new Error('Composition AWS : Secrets Manager non construit');
    return readSecret(name, arn, parse);
  };

  // One secret per declared key, read on the first call that needs keys, then kept.
  const keyNames: readonly ServerKeyName[] = needs.keys ?? [];
  const keyReaders = new Map(
    keyNames.map(
      (key) => [key, secret(`de la clé ${key}`, variable(env, KEY_VARIABLES[key]), parseServerKey)] as const,
    ),
  );
  // The same object while no key changed (each reader gives the same value until its secret
  // does), so what callers build from the keys is rebuilt only after a rotation.
  let current:
    | { readonly values: ReadonlyMap<ServerKeyName, Uint8Array>; readonly keys: AppKeys }
    | undefined;
  const appKeys = async (): Promise<AppKeys> => {
    const values = new Map<ServerKeyName, Uint8Array>();
    await Promise.all(
      [...keyReaders].map(async ([key, read]) => {
        values.set(key, await read());
      }),
    );
    if (current && [...values].every(([key, value]) => current?.values.get(key) === value)) {
      return current.keys;
    }
    const get = (key: ServerKeyName) => {
      const value = values.get(key);
      if (!value) throw new Error(`Composition AWS : clé ${key} non lue`);
      return value;
    };
    const keys: AppKeys = {
      get sessionSigningKey() {
        return get('sessionSigning');
      },
      get licenseHashKey() {
        return get('licenseHash');
      },
      get licenseEncryptionKey() {
        return get('licenseEncryption');
      },
    };
    current = { values, keys };
    return keys;
  };

  let lawyerSecrets: AppDependencies['lawyerSecrets'] = notBuilt('les secrets des avocats');
  if ((process.env.BUNDLED_NEED_LAWYER_SECRETS ?? true) && needs.lawyerSecrets) {
    const [{ SecretsManagerClient }, { SecretsManagerLawyerSecretStore }] = await Promise.all([
      import('@aws-sdk/client-secrets-manager'),
      import('../adapters/directory/secrets-manager-store'),
    ]);
    const prefix = variable(env, 'lawyerSecretsPrefix');
    lawyerSecrets = new SecretsManagerLawyerSecretStore(
      tracer.captureAWSv3Client(new SecretsManagerClient({})),
      () => prefix,
    );
  }

  let webhookQueue: AppDependencies['webhookQueue'] = notBuilt('la file des webhooks');
  if ((process.env.BUNDLED_NEED_QUEUE ?? true) && needs.webhookQueue) {
    const { SQSClient } = await import('@aws-sdk/client-sqs');
    const client = tracer.captureAWSv3Client(new SQSClient({}));
    const queueUrl = variable(env, 'webhookQueueUrl');
    // Only the resend of dead letters carries their side of the adapter (folded at bundling).
    if ((process.env.BUNDLED_NEED_REDRIVE ?? true) && needs.webhookQueue === 'redrive') {
      const { createSqsDispatchQueue } = await import('../adapters/scheduling/dispatch-queue');
      const deadLetterQueueUrl = variable(env, 'webhookDeadLetterQueueUrl');
      webhookQueue = createSqsDispatchQueue({
        client,
        queueUrl: () => queueUrl,
        deadLetterQueueUrl: () => deadLetterQueueUrl,
      });
    } else {
      const { createSqsQueueSender } = await import('../adapters/scheduling/queue-sender');
      webhookQueue = createSqsQueueSender({ client, queueUrl: () => queueUrl });
    }
  }

  let dueClaimers: AppDependencies['dueClaimers'] = notBuilt('les lots du planificateur');
  if ((process.env.BUNDLED_NEED_CLAIMERS ?? true) && needs.dueClaimers) {
    const [{ LambdaClient }, { createLambdaClaimers }] = await Promise.all([
      import('@aws-sdk/client-lambda'),
      import('../adapters/scheduling/lambda-claimers'),
    ]);
    const functionName = variable(env, 'dueClaimerFunctionName');
    dueClaimers = createLambdaClaimers(new LambdaClient({}), () => functionName);
  }

  let portalLinks: AppDependencies['portalLinks'];
  if ((process.env.BUNDLED_NEED_PORTAL_LINKS ?? true) && needs.portalLinks) {
    const [{ LambdaClient }, { createLambdaPortalLinks }] = await Promise.all([
      import('@aws-sdk/client-lambda'),
      import('../adapters/billing/lambda-portal-links'),
    ]);
    const functionName = variable(env, 'portalLinkSenderFunctionName');
    portalLinks = createLambdaPortalLinks(
      tracer.captureAWSv3Client(new LambdaClient({})),
      () => functionName,
    );
  }

  let webhookSigningSecret: AppDependencies['webhookSigningSecret'] = notBuilt<() => Promise<string>>(
    'le secret de signature des webhooks',
  );
  let publicApiUrl: AppDependencies['publicApiUrl'] = notBuilt<() => string>("l'adresse publique du site");
  if (needs.webhookSigning) {
    const [{ webhookSecretOf }, { publicOriginOf }] = await Promise.all([
      import('./scheduling-ports'),
      import('./public-origin'),
    ]);
    webhookSigningSecret = secret(
      'de signature des webhooks',
      variable(env, 'webhookSecretArn'),
      webhookSecretOf,
    );
    const origin = publicOriginOf(variable(env, 'publicBaseUrl'));
    publicApiUrl = () => origin;
  }

  let mail: MailPorts | undefined;
  if ((process.env.BUNDLED_NEED_MAILER ?? true) && needs.mailer) {
    const [{ SESv2Client }, { SesMailer }, { publicOriginOf }, { withLegalFooter }, { LegalDetails }] =
      await Promise.all([
        import('@aws-sdk/client-sesv2'),
        import('../adapters/core/ses-mailer'),
        import('./public-origin'),
        import('../domain/core/legal-footer'),
        import('../../shared/legal-details'),
      ]);
    const from = variable(env, 'mailFrom');
    const site = publicOriginOf(variable(env, 'publicBaseUrl'));
    mail = {
      mailer: withLegalFooter(
        new SesMailer(
          tracer.captureAWSv3Client(new SESv2Client({})),
          () => from,
          powertoolsMetrics,
          variable(env, 'mailConfigurationSet'),
        ),
        LegalDetails.parse(JSON.parse(variable(env, 'legalDetails'))),
      ),
      sender: from,
      publicUrl: () => site,
    };
  }

  let billing: BillingPorts | undefined;
  if ((process.env.BUNDLED_NEED_PAYMENTS ?? true) && needs.payments) {
    const [{ StripePayments }, { stripeKeyOf }, { publicOriginOf }] = await Promise.all([
      import('../adapters/billing/stripe-payments'),
      import('./billing-ports'),
      import('./public-origin'),
    ]);
    const apiKey = secret(
      'de la clé API Stripe',
      variable(env, 'stripeSecretKeyArn'),
      stripeKeyOf(['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'], 'une clé secrète sk_…'),
    );
    const webhookSecret =
      needs.payments === 'webhook'
        ? secret(
            'de signature du webhook Stripe',
            variable(env, 'stripeWebhookSecretArn'),
            stripeKeyOf(['whsec_'], 'un secret de signature whsec_…'),
          )
        : async () => undefined;
    const publicUrl = publicOriginOf(variable(env, 'publicBaseUrl'));
    const mailer: BillingPorts['mailer'] = mail?.mailer ?? notBuilt("l'envoi d'e-mails");
    // The secrets are read again at most every 5 minutes; a new key builds a new Stripe client, so
    // a rolled key is picked up without a deployment.
    let current:
      | { key: string; signingSecret: string | undefined; payments: InstanceType<typeof StripePayments> }
      | undefined;
    billing = {
      payments: async () => {
        const [key, signingSecret] = await Promise.all([apiKey(), webhookSecret()]);
        if (current?.key !== key || current.signingSecret !== signingSecret) {
          current = {
            key,
            signingSecret,
            payments: new StripePayments({ apiKey: key, webhookSecret: signingSecret }),
          };
        }
        return current.payments;
      },
      mailer,
      publicUrl: () => publicUrl,
    };
  }

  // A request signs download links and starts the builder; the builder only writes archives: each
  // bundle carries its side alone (the presigner and the Lambda client stay out of the builder's).
  let exports: AppDependencies['exports'];
  if ((process.env.BUNDLED_NEED_EXPORTS ?? true) && needs.dataExports) {
    const bucket = variable(env, 'exportBucketName');
    if ((process.env.BUNDLED_NEED_EXPORT_REQUESTS ?? true) && needs.dataExports === 'request') {
      const [{ S3Client }, { LambdaClient }, { createS3ExportLinks }, { createLambdaExportJobs }] =
        await Promise.all([
          import('@aws-sdk/client-s3'),
          import('@aws-sdk/client-lambda'),
          import('../adapters/billing/s3-export-links'),
          import('../adapters/billing/lambda-export-jobs'),
        ]);
      const builder = variable(env, 'exportBuilderFunctionName');
      exports = {
        files: {
          open: notBuilt("l'écriture des exports"),
          ...createS3ExportLinks(tracer.captureAWSv3Client(new S3Client({})), () => bucket),
        },
        jobs: createLambdaExportJobs(new LambdaClient({}), () => builder),
      };
    } else {
      const [{ S3Client }, { createS3ExportWriter }] = await Promise.all([
        import('@aws-sdk/client-s3'),
        import('../adapters/billing/s3-export-writer'),
      ]);
      exports = {
        files: {
          ...createS3ExportWriter(tracer.captureAWSv3Client(new S3Client({})), () => bucket),
          downloadUrl: notBuilt('les liens des exports'),
        },
        jobs: notBuilt('le lancement des exports'),
      };
    }
  }

  // The table client only where a table is declared (create-checkout reads nothing of ours).
  let table: AppDependencies['table'] = notBuilt('la table');
  if ((process.env.BUNDLED_NEED_TABLE ?? true) && needs.table) {
    const { createTable } = await import('../data/table/table');
    table = tracedTable(createTable(variable(env, 'tableName')));
  }

  return {
    table,
    appKeys,
    ...(needs.originSecret
      ? {
          originSecret: secret(
            'd’origine CloudFront',
            variable(env, 'originVerifySecretArn'),
            (value) => value,
          ),
        }
      : {}),
    clock: systemClock,
    logger: powertoolsLogger,
    metrics: powertoolsMetrics,
    lawyerSecrets,
    webhookQueue,
    dueClaimers,
    webhookSigningSecret,
    publicApiUrl,
    allowPrivateWebhooks: false,
    // Admins always pass a second factor in AWS; the passkeys' relying party is the site's host.
    secondFactor: {
      requiredForAdmins: true,
      relyingParty: () => relyingPartyOf(variable(env, 'siteUrl')),
    },
    ...(billing ? { billing } : {}),
    ...(mail ? { mail } : {}),
    ...(needs.adminAlerts && env.adminAlertEmail ? { adminAlertEmail: env.adminAlertEmail } : {}),
    ...(portalLinks ? { portalLinks } : {}),
    ...(exports ? { exports } : {}),
  };
}

/** The table with its DynamoDB calls traced (subsegments of the function's X-Ray trace). */
function tracedTable<T extends { doc: Parameters<typeof tracer.captureAWSv3Client>[0] }>(table: T): T {
  tracer.captureAWSv3Client(table.doc);
  return table;
}
