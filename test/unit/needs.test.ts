import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Table } from '../../functions/data/table/table';
import { RecordedMetrics } from '../../functions/domain/core/metrics';
import { bundleDefines, FUNCTION_NAMES, NEEDS } from '../../functions/needs';
import { declaredDependencies, UndeclaredNeedError } from '../../functions/runtime/declared';
import type { AppDependencies } from '../../functions/runtime/dependencies';
import { ENVIRONMENT, readEnvironment, variablesOf } from '../../functions/runtime/environment';
import { generateStoredAppKeys, parseAppKeys } from '../../functions/security/app-keys';
import { handlerNames } from '../../shared/routes';
import { MemoryLawyerSecretStore, MemoryLogger, TestClock } from '../support/app';
import { testSchedulingPorts } from '../support/scheduling-ports';

/** A table that records what reaches it: the declaration is checked before anything is sent. */
function recordingTable(): Table & { readonly sent: string[] } {
  const sent: string[] = [];
  const doc = { send: async (command: object) => sent.push(command.constructor.name) } as never;
  return { name: 'table', doc, sent };
}

function everything(table: Table): AppDependencies {
  const keys = parseAppKeys(JSON.stringify(generateStoredAppKeys()));
  return {
    table,
    appKeys: async () => keys,
    clock: new TestClock(),
    logger: new MemoryLogger(),
    metrics: new RecordedMetrics(),
    lawyerSecrets: new MemoryLawyerSecretStore(),
    secondFactor: {
      requiredForAdmins: true,
      relyingParty: () => ({ id: 'localhost', origin: 'http://localhost' }),
    },
    ...testSchedulingPorts(),
  };
}

describe('declaredDependencies: a function gets what functions/needs.ts declares, and nothing else', () => {
  it('refuses a write to a function that only reads the table (audit), before anything is sent', async () => {
    const table = recordingTable();
    const deps = declaredDependencies('audit', everything(table));

    await deps.table.doc.send(new GetCommand({ TableName: 't', Key: { PK: 'a', SK: 'b' } }));
    await deps.table.doc.send(new QueryCommand({ TableName: 't', IndexName: 'GSI1' } as never));
    await expect(
      deps.table.doc.send(new PutCommand({ TableName: 't', Item: { PK: 'a', SK: 'b' } })),
    ).rejects.toThrow(UndeclaredNeedError);
    expect(table.sent).toEqual(['GetCommand', 'QueryCommand']);
  });

  it('refuses a Query of an index the function did not declare', async () => {
    const deps = declaredDependencies('audit', everything(recordingTable()));
    await expect(
      deps.table.doc.send(new QueryCommand({ TableName: 't', IndexName: 'DueSlots' } as never)),
    ).rejects.toThrow("La fonction « audit » utilise l'index DueSlots sans l'avoir déclaré");
  });

  it('gives no table at all to create-checkout', async () => {
    const deps = declaredDependencies('create-checkout', everything(recordingTable()));
    expect(() => deps.table.doc.send(new GetCommand({ TableName: 't', Key: {} }))).toThrow(
      UndeclaredNeedError,
    );
  });

  it('lets a function that only verifies sessions read the session key, not the licence encryption key', async () => {
    const keys = await declaredDependencies('workflows', everything(recordingTable())).appKeys();
    expect(keys.sessionSigningKey).toHaveLength(32);
    expect(() => keys.licenseEncryptionKey).toThrow('utilise la clé licenseEncryption');
    expect(() => keys.licenseHashKey).toThrow(UndeclaredNeedError);
  });

  it('refuses the lawyer secrets, the queue and the signing secret where undeclared', async () => {
    const deps = declaredDependencies('folders', everything(recordingTable()));
    expect(() => deps.lawyerSecrets.get('x')).toThrow(UndeclaredNeedError);
    expect(() => deps.webhookQueue.sendBatch([])).toThrow(UndeclaredNeedError);
    expect(() => deps.webhookSigningSecret()).toThrow(UndeclaredNeedError);
    expect(deps.billing).toBeUndefined();
  });

  it('lets the tick start its claimers and nothing of the queue', async () => {
    const deps = declaredDependencies('scheduled-tick', everything(recordingTable()));
    expect(() => deps.webhookQueue.sendBatch([])).toThrow(UndeclaredNeedError);
    await expect(deps.dueClaimers.start([])).rejects.toThrow('non configurés dans ce test');
    expect(() =>
      declaredDependencies('due-claimer', everything(recordingTable())).dueClaimers.start([]),
    ).toThrow(UndeclaredNeedError);
  });

  it('lets a claimer send to the queue but not redrive it', async () => {
    const deps = declaredDependencies('due-claimer', everything(recordingTable()));
    expect(() => deps.webhookQueue.redriveDeadLetters(1, async () => 'send')).toThrow(UndeclaredNeedError);
    await expect(deps.webhookQueue.sendBatch([])).rejects.toThrow('non configurée dans ce test');
  });
});

describe('environment', () => {
  it('reads exactly the variables of the declared needs, at once, naming every missing one', () => {
    // Every API function has the origin secret besides its own declaration (API_DEFAULTS).
    expect(variablesOf(NEEDS['create-checkout'])).toEqual([
      'originVerifySecretArn',
      'stripeSecretKeyArn',
      'publicBaseUrl',
    ]);
    expect(() =>
      readEnvironment(NEEDS['create-checkout'], {
        [ENVIRONMENT.originVerifySecretArn]: 'arn:origin',
        [ENVIRONMENT.stripeSecretKeyArn]: 'arn',
      }),
    ).toThrow("Variable(s) d'environnement manquante(s) : PUBLIC_BASE_URL");
    const environment = readEnvironment(NEEDS['sign-out'], {
      TABLE_NAME: 'table',
      SESSION_SIGNING_KEY_SECRET_ARN: 'arn:key',
      ORIGIN_VERIFY_SECRET_ARN: 'arn:origin',
      STRIPE_SECRET_KEY_ARN: 'not read',
    });
    expect(environment).toEqual({
      tableName: 'table',
      sessionSigningKeyArn: 'arn:key',
      originVerifySecretArn: 'arn:origin',
    });
    // The event functions are not behind the API: no origin secret.
    expect(variablesOf(NEEDS['webhook-worker'])).not.toContain('originVerifySecretArn');
  });

  it('gives the origin secret to the API functions only: an event function is not behind CloudFront', () => {
    const apiFunctions: readonly string[] = handlerNames();
    for (const name of FUNCTION_NAMES) {
      expect(NEEDS[name].originSecret === true, name).toBe(apiFunctions.includes(name));
    }
  });
});

describe('bundleDefines', () => {
  it('leaves Stripe, SES and SQS out of every function that does not declare them', () => {
    for (const name of FUNCTION_NAMES) {
      const needs = NEEDS[name] as Record<string, unknown>;
      const defines = bundleDefines(NEEDS[name]);
      expect(defines['process.env.BUNDLED_NEED_PAYMENTS'], name).toBe(String('payments' in needs));
      expect(defines['process.env.BUNDLED_NEED_MAILER'], name).toBe(String('mailer' in needs));
      expect(defines['process.env.BUNDLED_NEED_QUEUE'], name).toBe(String('webhookQueue' in needs));
      expect(defines['process.env.BUNDLED_NEED_REDRIVE'], name).toBe(
        String(needs.webhookQueue === 'redrive'),
      );
    }
  });

  it("leaves the table, the session check and the export requests' clients out where undeclared", () => {
    for (const name of FUNCTION_NAMES) {
      const needs = NEEDS[name];
      const defines = bundleDefines(needs);
      expect(defines['process.env.BUNDLED_NEED_TABLE'], name).toBe(String(needs.table !== undefined));
      expect(defines['process.env.BUNDLED_NEED_SESSIONS'], name).toBe(
        String(needs.keys?.includes('sessionSigning') === true),
      );
      expect(defines['process.env.BUNDLED_NEED_EXPORT_REQUESTS'], name).toBe(
        String(needs.dataExports === 'request'),
      );
    }
    expect(bundleDefines(NEEDS['create-checkout'])['process.env.BUNDLED_NEED_TABLE']).toBe('false');
    expect(bundleDefines(NEEDS['request-portal-link'])['process.env.BUNDLED_NEED_SESSIONS']).toBe('false');
    expect(bundleDefines(NEEDS['data-export-builder'])['process.env.BUNDLED_NEED_EXPORT_REQUESTS']).toBe(
      'false',
    );
  });
});
