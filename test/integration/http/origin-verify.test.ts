import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { API_HANDLERS } from '../../../functions/handlers';
import { MESSAGES } from '../../../shared/messages';
import { ROUTES, type RouteDefinition } from '../../../shared/routes';
import { apiEvent, createTestApp, disposeTestApp, invoke, type TestApp } from '../../support/app';
import { issueAndSignIn } from '../../support/directory';

const ORIGIN_SECRET = 'secret-origine-de-test-0123456789abcdef';

/** A concrete path for a route's template (`/api/lawyers/{id}` → `/api/lawyers/x`). */
const concretePath = (route: RouteDefinition) => route.path.replace(/\{[^}]+\}/g, 'x');

/**
 * Only CloudFront reaches the API (issue 12): in AWS every function has the origin secret, and
 * every route of the table — the Stripe webhook included — refuses a request that does not carry
 * it, before its session, body or signature is looked at.
 */
describe('origin secret', () => {
  let app: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    adminToken = (await issueAndSignIn(app, 'admin')).token;
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  const routes = Object.entries(ROUTES);

  it.each(routes)('refuses %s without the origin secret, even with a valid session', async (_name, route) => {
    // Arrange
    const factory = API_HANDLERS[route.handler];
    const handler = factory({ ...app, originSecret: async () => ORIGIN_SECRET });

    // Act
    const missing = await invoke(
      handler,
      apiEvent(route.method, concretePath(route), { routePath: route.path, token: adminToken, body: {} }),
    );
    const wrong = await invoke(
      handler,
      apiEvent(route.method, concretePath(route), {
        routePath: route.path,
        token: adminToken,
        body: {},
        headers: { 'x-origin-verify': `${ORIGIN_SECRET.slice(0, -1)}X` },
      }),
    );

    // Assert
    for (const reply of [missing, wrong]) {
      expect(reply.statusCode).toBe(403);
      expect(reply.body).toEqual({ error: MESSAGES.request.directAccess });
    }
  });

  it('lets a request with the origin secret through to the route', async () => {
    // Arrange
    const handler = API_HANDLERS[ROUTES.getProfile.handler]({
      ...app,
      originSecret: async () => ORIGIN_SECRET,
    });

    // Act: an admin on a member route, so the route's own check answers.
    const reply = await invoke(
      handler,
      apiEvent('GET', ROUTES.getProfile.path, {
        token: adminToken,
        headers: { 'x-origin-verify': ORIGIN_SECRET },
      }),
    );

    // Assert
    expect(reply.statusCode).toBe(403);
    expect(reply.body).toEqual({ error: MESSAGES.session.forbidden });
  });

  it('checks nothing where no origin secret exists (the local runtime)', async () => {
    // Arrange
    const handler = API_HANDLERS[ROUTES.getProfile.handler](app);

    // Act
    const reply = await invoke(handler, apiEvent('GET', ROUTES.getProfile.path, { token: adminToken }));

    // Assert
    expect(reply.body).toEqual({ error: MESSAGES.session.forbidden });
  });
});
