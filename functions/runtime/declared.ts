import type { Table } from '../data/table/table';
import type { LawyerSecretStore } from '../domain/directory/ports';
import type { DispatchQueue } from '../domain/scheduling/ports';
import type { FunctionName, FunctionNeeds, ServerKeyName } from '../needs';
import { NEEDS } from '../needs';
import type { AppKeys } from '../security/app-keys';
import type { BillingPorts } from './billing-ports';
import type { AppDependencies, ExportPorts } from './dependencies';

/** A function used something it did not declare in `functions/needs.ts`. */
export class UndeclaredNeedError extends Error {
  override readonly name = 'UndeclaredNeedError';
  constructor(fn: FunctionName, need: string) {
    super(`La fonction « ${fn} » utilise ${need} sans l'avoir déclaré (functions/needs.ts)`);
  }
}

const KEY_FIELDS = {
  sessionSigning: 'sessionSigningKey',
  licenseHash: 'licenseHashKey',
  licenseEncryption: 'licenseEncryptionKey',
} as const satisfies Record<ServerKeyName, keyof AppKeys>;

/** The keys a function declared; reading another one throws. */
export function declaredKeys(
  fn: FunctionName,
  declared: readonly ServerKeyName[],
  value: (key: ServerKeyName) => Uint8Array,
): AppKeys {
  const keys = {} as Record<keyof AppKeys, Uint8Array>;
  for (const [name, field] of Object.entries(KEY_FIELDS) as [ServerKeyName, keyof AppKeys][]) {
    Object.defineProperty(keys, field, {
      enumerable: true,
      get: () => {
        if (!declared.includes(name)) throw new UndeclaredNeedError(fn, `la clé ${name}`);
        return value(name);
      },
    });
  }
  return keys;
}

const WRITES = new Set([
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'TransactWriteCommand',
  'BatchWriteCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

/**
 * The table as a function declared it: every command goes through the same check IAM makes in
 * AWS — a write needs `readWrite`, a Query of an index needs that index declared.
 */
export function declaredTable(fn: FunctionName, needs: FunctionNeeds, table: Table): Table {
  if (!needs.table) return { name: '', doc: new Proxy(table.doc ?? {}, { get: refuse(fn, 'la table') }) };
  const check = (command: { constructor: { name: string }; input?: unknown }) => {
    const access = needs.table;
    if (!access) throw new UndeclaredNeedError(fn, 'la table');
    const kind = command.constructor.name;
    if (WRITES.has(kind) && access.access !== 'readWrite')
      throw new UndeclaredNeedError(fn, `l'écriture dans la table (${kind})`);
    const index = (command.input as { IndexName?: string } | undefined)?.IndexName;
    if (index && !(access.indexes as readonly string[]).includes(index))
      throw new UndeclaredNeedError(fn, `l'index ${index}`);
  };
  const doc = new Proxy(table.doc, {
    get(target, property, receiver) {
      if (property === 'send')
        return (command: Parameters<typeof target.send>[0], ...rest: unknown[]) => {
          try {
            check(command as never);
          } catch (error) {
            // As the SDK fails: a rejected promise, never a throw at the call.
            return Promise.reject(error);
          }
          return (target.send as (...args: unknown[]) => unknown)(command, ...rest);
        };
      return Reflect.get(target, property, receiver);
    },
  });
  return { name: table.name, doc };
}

const refuse = (fn: FunctionName, need: string) => (): never => {
  throw new UndeclaredNeedError(fn, need);
};

function declaredQueue(fn: FunctionName, needs: FunctionNeeds, queue: DispatchQueue): DispatchQueue {
  const use = needs.webhookQueue;
  const allowed = (method: keyof DispatchQueue, modes: readonly string[]) =>
    use && modes.includes(use) ? queue[method].bind(queue) : refuse(fn, `la file des webhooks (${method})`);
  return {
    sendBatch: allowed('sendBatch', ['send', 'redrive', 'consume']),
    changeVisibility: allowed('changeVisibility', ['consume']),
    deadLetterCount: allowed('deadLetterCount', ['redrive']),
    redriveDeadLetters: allowed('redriveDeadLetters', ['redrive']),
  } as DispatchQueue;
}

function declaredBilling(fn: FunctionName, needs: FunctionNeeds, billing: BillingPorts): BillingPorts {
  return {
    payments: billing.payments,
    publicUrl: billing.publicUrl,
    mailer: needs.mailer ? billing.mailer : { send: refuse(fn, "l'envoi d'e-mails") },
  };
}

/** A request may start a build and sign links; only the builder writes archives. */
function declaredExports(fn: FunctionName, needs: FunctionNeeds, exports: ExportPorts): ExportPorts {
  const request = needs.dataExports === 'request';
  return {
    files: {
      open:
        needs.dataExports === 'build'
          ? exports.files.open.bind(exports.files)
          : refuse(fn, "l'écriture des exports"),
      downloadUrl: request
        ? exports.files.downloadUrl.bind(exports.files)
        : refuse(fn, 'les liens des exports'),
    },
    jobs: { start: request ? exports.jobs.start.bind(exports.jobs) : refuse(fn, 'le lancement des exports') },
  };
}

const refusingSecretStore = (fn: FunctionName): LawyerSecretStore => ({
  put: refuse(fn, 'les secrets des avocats'),
  get: refuse(fn, 'les secrets des avocats'),
  delete: refuse(fn, 'les secrets des avocats'),
});

/**
 * The dependencies of one function: what it declared in `NEEDS`, and for anything else a part
 * that throws `UndeclaredNeedError` when used. Every world goes through it (the handler
 * factories apply it), so the tests and the local runtime refuse what AWS would.
 */
export function declaredDependencies(fn: FunctionName, deps: AppDependencies): AppDependencies {
  const needs: FunctionNeeds = NEEDS[fn];
  const keys = needs.keys ?? [];
  let loaded: Promise<AppKeys> | undefined;
  return {
    table: declaredTable(fn, needs, deps.table),
    appKeys: () => {
      loaded ??= (keys.length > 0 ? deps.appKeys() : Promise.resolve(null)).then((all) =>
        declaredKeys(fn, keys, (key) => (all as AppKeys)[KEY_FIELDS[key]]),
      );
      // A failed read (Secrets Manager unreachable) is tried again on the next call.
      loaded.catch(() => {
        loaded = undefined;
      });
      return loaded;
    },
    ...(needs.originSecret && deps.originSecret ? { originSecret: deps.originSecret } : {}),
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
    lawyerSecrets: needs.lawyerSecrets ? deps.lawyerSecrets : refusingSecretStore(fn),
    webhookQueue: declaredQueue(fn, needs, deps.webhookQueue),
    dueClaimers: needs.dueClaimers
      ? deps.dueClaimers
      : { start: refuse(fn, 'les lots du planificateur'), claim: refuse(fn, 'les lots du planificateur') },
    webhookSigningSecret: needs.webhookSigning
      ? deps.webhookSigningSecret
      : refuse(fn, 'le secret de signature des webhooks'),
    allowPrivateWebhooks: deps.allowPrivateWebhooks,
    publicApiUrl: needs.webhookSigning ? deps.publicApiUrl : refuse(fn, "l'adresse publique du site"),
    secondFactor: {
      requiredForAdmins: deps.secondFactor.requiredForAdmins,
      relyingParty: needs.relyingParty
        ? deps.secondFactor.relyingParty
        : refuse(fn, "l'adresse du site (passkeys)"),
    },
    // Without payments there are no billing ports at all: a billing call fails at once.
    ...(needs.payments && deps.billing ? { billing: declaredBilling(fn, needs, deps.billing) } : {}),
    // Without the mailer there is no mail port: its users (the health alerts) go without.
    ...(needs.mailer && deps.mail ? { mail: deps.mail } : {}),
    ...(needs.adminAlerts && deps.adminAlertEmail ? { adminAlertEmail: deps.adminAlertEmail } : {}),
    ...(needs.portalLinks && deps.portalLinks ? { portalLinks: deps.portalLinks } : {}),
    ...((process.env.BUNDLED_NEED_EXPORTS ?? true) && needs.dataExports && deps.exports
      ? { exports: declaredExports(fn, needs, deps.exports) }
      : {}),
  };
}
