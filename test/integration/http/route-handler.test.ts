import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LicenseRepository } from '../../../functions/data/identity/licenses';
import { ConflictError } from '../../../functions/domain/core/errors';
import { METRIC, RecordedMetrics } from '../../../functions/domain/core/metrics';
import { issueLicense } from '../../../functions/domain/identity/licenses';
import { apiHandler } from '../../../functions/http/route-handler';
import { sessionOpenerOf } from '../../../functions/runtime/services/identity';
import { createLicenseKeyVault } from '../../../functions/security/license-key-vault';
import { MESSAGES } from '../../../shared/messages';
import {
  apiEvent,
  createTestApp,
  disposeTestApp,
  invoke,
  MemoryLogger,
  type TestApp,
} from '../../support/app';
import { minutesAfterOrigin, uniqueEmail } from '../../support/records';

/**
 * The middy pipeline every handler shares, exercised through the session routes with test
 * implementations, so that a failure can be provoked where the real ones never fail.
 */
describe('apiHandler', () => {
  let app: TestApp;

  /** A session token of a fresh lawyer licence. */
  const sessionToken = async () => {
    const vault = createLicenseKeyVault(app.keys);
    const { record } = await issueLicense(
      new LicenseRepository(app.table),
      vault,
      { licenseType: 'lawyer', userEmail: uniqueEmail('lawyer') },
      minutesAfterOrigin(0),
    );
    const session = await sessionOpenerOf(app, app.keys).open(record, record.userEmail!);
    return session.token;
  };

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  describe('unexpected errors', () => {
    it('answers 500 without details and logs the failure without the request', async () => {
      // Arrange
      const logger = new MemoryLogger();
      const metrics = new RecordedMetrics();
      const token = await sessionToken();
      const handler = apiHandler(
        { ...app, logger, metrics },
        {
          signOut: async () => {
            throw new TypeError('Cannot read properties of undefined (reading "lawyerId")');
          },
        },
      );
      const marker = 'corps-confidentiel-4f1c';

      // Act
      const { statusCode, body, result } = await invoke(
        handler,
        apiEvent('POST', '/api/sign-out', { token, body: { note: marker } }),
      );

      // Assert
      expect(statusCode).toBe(500);
      expect(body).toEqual({ error: MESSAGES.request.internal });
      expect(result.body).not.toContain('lawyerId');
      expect(logger.lines).toHaveLength(1);
      expect(JSON.parse(logger.lines[0]!)).toMatchObject({
        message: 'Erreur non gérée',
        route: 'POST /api/sign-out',
        errorName: 'TypeError',
      });
      expect(logger.lines[0]).not.toContain(marker);
      expect(logger.lines[0]).not.toContain(token);
      // Counted for its alarm: Lambda's Errors never sees a handled 500.
      expect(metrics.countOf(METRIC.handledServerError)).toBe(1);
    });

    it('logs a failure of a route with a body without the body', async () => {
      // Arrange
      const logger = new MemoryLogger();
      const handler = apiHandler(
        { ...app, logger },
        {
          verifyLicense: async () => {
            throw new Error('échec du service');
          },
        },
      );

      // Act
      const { statusCode } = await invoke(
        handler,
        apiEvent('POST', '/api/verify-license', { body: { licenseKey: 'NOTARY-SECRET42' } }),
      );

      // Assert
      expect(statusCode).toBe(500);
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]).not.toContain('NOTARY-SECRET42');
    });
  });

  describe('expected errors', () => {
    it('answers a domain error with its status and French message, without logging it', async () => {
      // Arrange
      const logger = new MemoryLogger();
      const metrics = new RecordedMetrics();
      const token = await sessionToken();
      const handler = apiHandler(
        { ...app, logger, metrics },
        {
          signOut: async () => {
            throw new ConflictError(MESSAGES.lawyerSave.conflict);
          },
        },
      );

      // Act
      const { statusCode, body } = await invoke(handler, apiEvent('POST', '/api/sign-out', { token }));

      // Assert
      expect(statusCode).toBe(409);
      expect(body).toEqual({ error: MESSAGES.lawyerSave.conflict });
      expect(logger.lines).toEqual([]);
    });

    it.each([
      [
        'a cancelled transaction',
        {
          name: 'TransactionCanceledException',
          CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
        },
      ],
      ['a write racing a transaction', { name: 'TransactionConflictException' }],
    ])('answers %s on real DynamoDB with 409, never 500', async (_case, fault) => {
      // Arrange: DynamoDB Local never raises these; real DynamoDB does under concurrent writes.
      const token = await sessionToken();
      const handler = apiHandler(app, {
        signOut: async () => {
          throw Object.assign(new Error('Transaction cancelled'), fault);
        },
      });

      // Act
      const { statusCode, body } = await invoke(handler, apiEvent('POST', '/api/sign-out', { token }));

      // Assert
      expect(statusCode).toBe(409);
      expect(body).toEqual({ error: MESSAGES.request.conflict });
    });

    it('checks the session before running the implementation', async () => {
      // Arrange
      const calls: string[] = [];
      const handler = apiHandler(app, {
        signOut: async ({ session }) => {
          calls.push(session.sessionId);
          return { success: true as const };
        },
      });

      // Act
      const { statusCode } = await invoke(handler, apiEvent('POST', '/api/sign-out'));

      // Assert
      expect(statusCode).toBe(401);
      expect(calls).toEqual([]);
    });
  });

  describe('routing', () => {
    it('answers an unknown route key with 404', async () => {
      // Arrange
      const handler = apiHandler(app, { signOut: async () => ({ success: true as const }) });

      // Act
      const { statusCode, body } = await invoke(handler, apiEvent('GET', '/api/unknown'));

      // Assert
      expect(statusCode).toBe(404);
      expect(body).toEqual({ error: MESSAGES.request.notFound });
    });

    it('answers a route the handler does not serve with 404', async () => {
      // Arrange
      const handler = apiHandler(app, { signOut: async () => ({ success: true as const }) });

      // Act
      const { statusCode, body } = await invoke(
        handler,
        apiEvent('POST', '/api/verify-license', { body: { licenseKey: 'NOTARY-ABCD1234' } }),
      );

      // Assert
      expect(statusCode).toBe(404);
      expect(body).toEqual({ error: MESSAGES.request.notFound });
    });

    it('sends JSON replies that are never cached', async () => {
      // Arrange
      const token = await sessionToken();
      const handler = apiHandler(app, { signOut: async () => ({ success: true as const }) });

      // Act
      const { statusCode, result } = await invoke(handler, apiEvent('POST', '/api/sign-out', { token }));

      // Assert
      expect(statusCode).toBe(200);
      expect(result.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      });
    });
  });
});
