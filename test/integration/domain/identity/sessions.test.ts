import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { queryAll } from '../../../../functions/data/table/query-all';
import { MAX_SESSIONS_PER_LICENSE } from '../../../../shared/constants';
import { MESSAGES } from '../../../../shared/messages';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { callRoute, issueAndSignIn, signIn } from '../../../support/directory';

/** Issue 14 §3: one licence holds at most 20 live sessions; the 21st sign-in ends the oldest. */
describe('sessions per licence', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  const sessionsOf = async (keyHash: string) =>
    (
      await queryAll(app.table, {
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': `LICENSE_SESSIONS#${keyHash}` },
      })
    ).length;

  const works = async (token: string) => (await callRoute(app, 'getProfile', { token })).statusCode;

  it('ends the oldest session when the licence opens its 21st', async () => {
    // Arrange: the first session, then 20 more, each a second later.
    const first = await issueAndSignIn(app, 'lawyer');
    const tokens = [first.token];
    for (let index = 0; index < MAX_SESSIONS_PER_LICENSE; index++) {
      app.clock.advance(1_000);
      const reply = await signIn(app, first.licenseKey);
      if (!reply.token) throw new Error('connexion refusée');
      tokens.push(reply.token);
    }

    // Act
    const oldest = await callRoute(app, 'getProfile', { token: tokens[0] });

    // Assert
    expect(oldest.statusCode).toBe(401);
    expect(oldest.body).toEqual({ error: MESSAGES.session.required });
    expect(await works(tokens[1] ?? '')).toBe(200);
    expect(await works(tokens.at(-1) ?? '')).toBe(200);
    expect(await sessionsOf(first.keyHash)).toBe(MAX_SESSIONS_PER_LICENSE);
  });

  it('keeps the cap under a burst of parallel sign-ins', async () => {
    // Arrange
    const member = await issueAndSignIn(app, 'notary');

    // Act
    const replies = await Promise.all(Array.from({ length: 60 }, () => signIn(app, member.licenseKey)));

    // Assert
    expect(replies.every((reply) => reply.valid)).toBe(true);
    expect(await sessionsOf(member.keyHash)).toBe(MAX_SESSIONS_PER_LICENSE);
  });

  it('leaves the sessions of other licences alone', async () => {
    const other = await issueAndSignIn(app, 'lawyer');
    expect(await works(other.token)).toBe(200);
    expect(await sessionsOf(other.keyHash)).toBe(1);
  });
});
