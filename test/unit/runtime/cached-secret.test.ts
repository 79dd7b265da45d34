import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { METRIC, RecordedMetrics } from '../../../functions/domain/core/metrics';
import { stripeKeyOf } from '../../../functions/runtime/billing-ports';
import {
  cachedSecret,
  SECRET_MAX_AGE_SECONDS,
  SecretUnavailableError,
} from '../../../functions/runtime/cached-secret';
import { MemoryLogger } from '../../support/app';
import { awsError } from '../../support/faults';

/** An AWS SDK error as the SDK throws it: its name is the service's error code. */
/**
 * `cachedSecret` over Powertools Parameters and a real Secrets Manager client whose answers
 * aws-sdk-client-mock scripts: the faults no emulator gives (unavailable, access denied, empty).
 */
describe('cachedSecret', () => {
  const client = new SecretsManagerClient({
    region: 'eu-west-3',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
  });
  const secretsManager = mockClient(client);
  let metrics: RecordedMetrics;
  let logger: MemoryLogger;

  const secretOf = <T>(parse: (value: string) => T, name = 'de test') =>
    cachedSecret(
      { provider: new SecretsProvider({ awsSdkV3Client: client }), metrics, logger },
      name,
      () => 'arn:aws:secretsmanager:eu-west-3:123456789012:secret:test',
      parse,
    );

  beforeEach(() => {
    secretsManager.reset();
    metrics = new RecordedMetrics();
    logger = new MemoryLogger();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the secret once for callers at the same moment, and parses it', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: '{"key":"valeur"}' });
    const secret = secretOf((value) => JSON.parse(value) as { key: string });
    expect(secretsManager.calls()).toHaveLength(0);

    const [first, second] = await Promise.all([secret(), secret()]);

    expect(first).toEqual({ key: 'valeur' });
    expect(second).toBe(first);
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('picks up a rotated value once the maximum age has passed, without a deployment', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    secretsManager
      .on(GetSecretValueCommand)
      .resolvesOnce({ SecretString: 'whsec_ancien' })
      .resolves({ SecretString: 'whsec_nouveau' });
    const secret = secretOf((value) => value);

    await expect(secret()).resolves.toBe('whsec_ancien');
    vi.advanceTimersByTime((SECRET_MAX_AGE_SECONDS - 1) * 1000);
    await expect(secret()).resolves.toBe('whsec_ancien');
    vi.advanceTimersByTime(2000);
    await expect(secret()).resolves.toBe('whsec_nouveau');
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it.each([
    ['unavailable', 'ServiceUnavailableException'],
    ['throttled', 'ThrottlingException'],
    ['refused (access denied)', 'AccessDeniedException'],
  ])(
    'reports a Secrets Manager %s in French, counted and logged without the value, then tries again',
    async (_case, code) => {
      secretsManager
        .on(GetSecretValueCommand)
        .rejectsOnce(awsError(code))
        .resolves({ SecretString: 'whsec_abc' });
      const secret = secretOf((value) => value, 'de signature des webhooks');

      const failure = await secret().catch((error: unknown) => error);

      expect(failure).toBeInstanceOf(SecretUnavailableError);
      expect((failure as Error).message).toBe(`Secret de signature des webhooks illisible (${code})`);
      expect(metrics.countOf(METRIC.secretUnavailable)).toBe(1);
      expect(logger.lines).toEqual([
        JSON.stringify({
          level: 'ERROR',
          message: 'Secret indisponible',
          secret: 'de signature des webhooks',
          errorName: code,
        }),
      ]);
      // Nothing kept from the failure: the next call reads again and succeeds.
      await expect(secret()).resolves.toBe('whsec_abc');
    },
  );

  it('reports a Stripe secret left empty after the deployment, naming what to do', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({});
    const secret = secretOf(stripeKeyOf(['sk_'], 'une clé sk_…'), 'de la clé API Stripe');

    await expect(secret()).rejects.toThrow(
      'Secret de la clé API Stripe vide : sa valeur reste à renseigner (docs/operations.md)',
    );
    expect(metrics.countOf(METRIC.secretUnavailable)).toBe(1);
  });

  it('reports a value that is not what the secret must hold, without the value', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'pk_live_pas_une_cle_secrete' });
    const secret = secretOf(stripeKeyOf(['sk_'], 'une clé secrète sk_…'), 'de la clé API Stripe');

    const failure = (await secret().catch((error: unknown) => error)) as Error;

    expect(failure.message).toBe(
      'Secret Stripe non configuré : une clé secrète sk_… attendu (voir docs/billing.md)',
    );
    expect(logger.lines.join('\n')).not.toContain('pk_live_pas_une_cle_secrete');
    expect(metrics.countOf(METRIC.secretUnavailable)).toBe(1);
  });
});
