import { createTable } from '../data/table';
import type { MailPorts } from '../domain/mailer';
import { type FunctionName, type FunctionNeeds, NEEDS, type ServerKeyName } from '../needs';
import { type AppKeys, parseServerKey } from '../security/app-keys';
import type { BillingPorts } from './billing-ports';
import { type AppDependencies, createJsonLogger, relyingPartyOf, systemClock } from './dependencies';
import { type Environment, KEY_VARIABLES, variable } from './environment';

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
 * The AWS composition root of one function: builds the adapters its needs declare and nothing
 * else, from the environment read at cold start (`entry.ts`).
 *
 * Each adapter that brings a client library (Secrets Manager, SQS, SES, Stripe) is imported
 * behind a `process.env.BUNDLED_NEED_…` constant that the bundler replaces by `true` or `false`
 * for this function (`bundleDefines` in `functions/needs.ts`): esbuild removes the `false`
 * branches and the modules only they import, so a function's bundle holds its declared adapters
 * alone. Outside a bundle the constants are undefined and the declaration alone decides.
 */
export async function awsDependencies(fn: FunctionName, env: Environment): Promise<AppDependencies> {
  const needs: FunctionNeeds = NEEDS[fn];
  let readSecret: (<T>(arn: string, parse: (value: string) => T) => () => Promise<T>) | undefined;
  if (process.env.BUNDLED_NEED_SECRETS ?? true) {
    const [{ SecretsManagerClient }, { cachedSecret }] = await Promise.all([
      import('@aws-sdk/client-secrets-manager'),
      import('./cached-secret'),
    ]);
    const client = new SecretsManagerClient({});
    readSecret = (arn, parse) => cachedSecret(client, () => arn, parse);
  }
  const secret = <T>(arn: string, parse: (value: string) => T) => {
    if (!readSecret) throw new Error('Composition AWS : Secrets Manager non construit');
    return readSecret(arn, parse);
  };

  // One secret per declared key, read on the first call that needs keys, then kept.
  const keyNames: readonly ServerKeyName[] = needs.keys ?? [];
  const keyReaders = new Map(
    keyNames.map((key) => [key, secret(variable(env, KEY_VARIABLES[key]), parseServerKey)] as const),
  );
  const appKeys = async (): Promise<AppKeys> => {
    const values = new Map<ServerKeyName, Uint8Array>();
    await Promise.all(
      [...keyReaders].map(async ([key, read]) => {
        values.set(key, await read());
      }),
    );
    const get = (key: ServerKeyName) => {
      const value = values.get(key);
      if (!value) throw new Error(`Composition AWS : clé ${key} non lue`);
      return value;
    };
    return {
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
  };

  let lawyerSecrets: AppDependencies['lawyerSecrets'] = notBuilt('les secrets des avocats');
  if ((process.env.BUNDLED_NEED_LAWYER_SECRETS ?? true) && needs.lawyerSecrets) {
    const [{ SecretsManagerClient }, { SecretsManagerLawyerSecretStore }] = await Promise.all([
      import('@aws-sdk/client-secrets-manager'),
      import('../adapters/secrets-manager-store'),
    ]);
    const prefix = variable(env, 'lawyerSecretsPrefix');
    lawyerSecrets = new SecretsManagerLawyerSecretStore(new SecretsManagerClient({}), () => prefix);
  }

  let webhookQueue: AppDependencies['webhookQueue'] = notBuilt('la file des webhooks');
  if ((process.env.BUNDLED_NEED_QUEUE ?? true) && needs.webhookQueue) {
    const [{ SQSClient }, { createSqsDispatchQueue }] = await Promise.all([
      import('@aws-sdk/client-sqs'),
      import('../adapters/dispatch-queue'),
    ]);
    const queueUrl = variable(env, 'webhookQueueUrl');
    const deadLetterQueueUrl =
      needs.webhookQueue === 'redrive' ? variable(env, 'webhookDeadLetterQueueUrl') : undefined;
    webhookQueue = createSqsDispatchQueue({
      client: new SQSClient({}),
      queueUrl: () => queueUrl,
      deadLetterQueueUrl: () => {
        if (!deadLetterQueueUrl) throw new Error('Composition AWS : file des échecs non déclarée');
        return deadLetterQueueUrl;
      },
    });
  }

  let webhookSigningSecret: AppDependencies['webhookSigningSecret'] = notBuilt<() => Promise<string>>(
    'le secret de signature des webhooks',
  );
  if (needs.webhookSigning) {
    const { webhookSecretOf } = await import('./scheduling-ports');
    webhookSigningSecret = secret(variable(env, 'webhookSecretArn'), webhookSecretOf);
  }

  let mail: MailPorts | undefined;
  if ((process.env.BUNDLED_NEED_MAILER ?? true) && needs.mailer) {
    const [{ SESv2Client }, { SesMailer }, { publicOriginOf }] = await Promise.all([
      import('@aws-sdk/client-sesv2'),
      import('../adapters/ses-mailer'),
      import('./billing-ports'),
    ]);
    const from = variable(env, 'mailFrom');
    const site = publicOriginOf(variable(env, 'publicBaseUrl'));
    mail = { mailer: new SesMailer(new SESv2Client({}), () => from), sender: from, publicUrl: () => site };
  }

  let billing: BillingPorts | undefined;
  if ((process.env.BUNDLED_NEED_PAYMENTS ?? true) && needs.payments) {
    const [{ StripePayments }, { stripeKeyOf, publicOriginOf }] = await Promise.all([
      import('../adapters/stripe-payments'),
      import('./billing-ports'),
    ]);
    const apiKey = secret(
      variable(env, 'stripeSecretKeyArn'),
      stripeKeyOf(['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'], 'une clé secrète sk_…'),
    );
    const webhookSecret =
      needs.payments === 'webhook'
        ? secret(
            variable(env, 'stripeWebhookSecretArn'),
            stripeKeyOf(['whsec_'], 'un secret de signature whsec_…'),
          )
        : async () => undefined;
    const publicUrl = publicOriginOf(variable(env, 'publicBaseUrl'));
    const mailer: BillingPorts['mailer'] = mail?.mailer ?? notBuilt("l'envoi d'e-mails");
    let payments: Promise<InstanceType<typeof StripePayments>> | undefined;
    billing = {
      payments: () => {
        payments ??= Promise.all([apiKey(), webhookSecret()]).then(
          ([key, signingSecret]) => new StripePayments({ apiKey: key, webhookSecret: signingSecret }),
        );
        payments.catch(() => {
          payments = undefined;
        });
        return payments;
      },
      mailer,
      publicUrl: () => publicUrl,
    };
  }

  return {
    table: needs.table ? createTable(variable(env, 'tableName')) : notBuilt('la table'),
    appKeys,
    ...(needs.originSecret
      ? { originSecret: secret(variable(env, 'originVerifySecretArn'), (value) => value) }
      : {}),
    clock: systemClock,
    logger: createJsonLogger(fn),
    lawyerSecrets,
    webhookQueue,
    webhookSigningSecret,
    allowPrivateWebhooks: false,
    // Admins always pass a second factor in AWS; the passkeys' relying party is the site's host.
    secondFactor: {
      requiredForAdmins: true,
      relyingParty: () => relyingPartyOf(variable(env, 'siteUrl')),
    },
    ...(billing ? { billing } : {}),
    ...(mail ? { mail } : {}),
  };
}
