import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';

import { MAX_SESSIONS_PER_LICENSE, SECOND_FACTOR } from '../../../../shared/constants';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute } from '../../../support/directory';
import { enrolTotp, issueLicenseFor, signInFrom } from '../../../support/second-factor';

/**
 * Pending (key-only) sessions live apart from verified ones: signing in with the key alone, however
 * often, never ends nor counts against a session that passed the second factor, and the pending
 * ones of a licence are capped on their own.
 */
describe('pending sessions apart from verified ones', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'), { requireSecondFactor: true });
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });
  beforeEach(() => {
    app.clock.advance(60 * 60 * 1000);
  });

  /** An admin licence with TOTP enrolled, and the verified session of its enrolment. */
  async function enrolledAdmin() {
    const { licenseKey } = await issueLicenseFor(app, 'admin', null);
    const pending = (await signInFrom(app, licenseKey)).token!;
    return { licenseKey, ...(await enrolTotp(app, pending)) };
  }

  it('never ends a session that passed the factor, however many key-only sign-ins follow', async () => {
    // Arrange
    const owner = await enrolledAdmin();

    // Act: more key-only sign-ins than the licence holds sessions of either kind.
    for (let attempt = 0; attempt < MAX_SESSIONS_PER_LICENSE + 5; attempt++) {
      await signInFrom(app, owner.licenseKey);
    }

    // Assert: the verified session still works.
    expect((await callRoute(app, 'listAudit', { token: owner.token })).statusCode).toBe(200);
  });

  it('keeps only the newest pending sessions of a licence, its own cap', async () => {
    // Arrange
    const owner = await enrolledAdmin();
    const { perLicense } = SECOND_FACTOR.pendingSessions;

    // Act
    const keyOnly: string[] = [];
    for (let attempt = 0; attempt < perLicense + 3; attempt++) {
      keyOnly.push((await signInFrom(app, owner.licenseKey)).token!);
      app.clock.advance(1_000);
    }

    // Assert: the oldest three ended, the newest `perLicense` still answer.
    const statuses = await Promise.all(
      keyOnly.map(async (token) => (await callRoute(app, 'secondFactorStatus', { token })).statusCode),
    );
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(perLicense).fill(200)]);
    expect((await callRoute(app, 'listAudit', { token: owner.token })).statusCode).toBe(200);
  });
});
