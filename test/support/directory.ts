import { randomUUID } from 'node:crypto';
import { LicenseRepository } from '../../functions/data/identity/licenses';
import { issueLicense } from '../../functions/domain/identity/licenses';
import { API_HANDLERS } from '../../functions/handlers';
import type { ApiHandler } from '../../functions/http/api-event';
import { createLicenseKeyVault } from '../../functions/security/license-key-vault';
import { type HandlerName, ROUTES, type RouteName, routePath } from '../../shared/routes';
import type { LawyerSaveReply } from '../../shared/schemas/directory';
import type { LicenseType, VerifyLicenseReply } from '../../shared/schemas/session';
import { apiEvent, invoke, type TestApp } from './app';

/**
 * Helpers of the API tests: call any route of the table by name through its real handler,
 * issue licences and sign in with them through verify-license.
 */

const handlers = new WeakMap<TestApp, Map<HandlerName, ApiHandler>>();

/** The real handler of a route's function, built once per test app. */
export function handlerOf(app: TestApp, name: HandlerName): ApiHandler {
  let built = handlers.get(app);
  if (!built) {
    built = new Map();
    handlers.set(app, built);
  }
  let handler = built.get(name);
  if (!handler) {
    // Held to its declared needs (functions/needs.ts): an undeclared use fails the test.
    handler = API_HANDLERS[name](app);
    built.set(name, handler);
  }
  return handler;
}

export interface CallOptions {
  readonly token?: string;
  readonly params?: Record<string, string>;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly query?: Record<string, string>;
  /** The client's address, as API Gateway sees it (throttles count per address). */
  readonly sourceIp?: string;
  /** The browser's cookies (`name=value` each) and user agent. */
  readonly cookies?: string[];
  readonly userAgent?: string;
  /** More request headers, lower-case (`idempotency-key`). */
  readonly headers?: Record<string, string>;
}

/** Calls a route by its name in the route table, as API Gateway would route it to its handler. */
export function callRoute<T = Record<string, unknown>>(
  app: TestApp,
  name: RouteName,
  options: CallOptions = {},
) {
  const route = ROUTES[name];
  const params = options.params ?? {};
  return invoke<T>(
    handlerOf(app, route.handler),
    apiEvent(route.method, routePath(route, params), {
      routePath: route.path,
      pathParameters: Object.keys(params).length > 0 ? params : undefined,
      token: options.token,
      body: options.body,
      rawBody: options.rawBody,
      query: options.query,
      sourceIp: options.sourceIp,
      ...(options.cookies ? { cookies: options.cookies } : {}),
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    }),
  );
}

/** Signs in with a licence key through verify-license; the reply carries the session token. */
export async function signIn(app: TestApp, licenseKey: string) {
  const { body } = await invoke<VerifyLicenseReply>(
    handlerOf(app, 'verify-license'),
    apiEvent('POST', '/api/verify-license', {
      body: { licenseKey },
      // One client per attempt, so that expected failures never slow the next sign-in down.
      sourceIp: `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
    }),
  );
  return body;
}

/** A signed-in user: his licence key, its hash and his session token. */
export interface SignedIn {
  readonly licenseKey: string;
  readonly keyHash: string;
  readonly token: string;
  readonly email: string;
}

/** Issues an active licence and signs in with it. */
export async function issueAndSignIn(
  app: TestApp,
  licenseType: LicenseType,
  userEmail: string | null = licenseType === 'admin' ? null : `${licenseType}.${randomUUID()}@example.com`,
): Promise<SignedIn> {
  const { licenseKey, record } = await issueLicense(
    new LicenseRepository(app.table),
    createLicenseKeyVault(app.keys),
    { licenseType, userEmail, subscriptionStatus: licenseType === 'admin' ? null : 'active' },
    app.clock.now().toISOString(),
  );
  const reply = await signIn(app, licenseKey);
  if (!reply.valid || !reply.token) throw new Error(`Connexion refusée: ${reply.error}`);
  return { licenseKey, keyHash: record.keyHash, token: reply.token, email: reply.userEmail ?? '' };
}

/** The fields of a valid lawyer, unique e-mail included. */
export function lawyerFields(overrides: Record<string, unknown> = {}) {
  return {
    firstName: 'Camille',
    lastName: 'Martin',
    email: `camille.${randomUUID()}@gmail.com`,
    phoneNumber: '0142000000',
    officeName: 'Cabinet Martin',
    ...overrides,
  };
}

/** A lawyer created by an admin (PUT /api/lawyers), signed in with the licence he was given. */
export async function createSignedInLawyer(
  app: TestApp,
  adminToken: string,
  overrides: Record<string, unknown> = {},
) {
  const { statusCode, body } = await callRoute<LawyerSaveReply>(app, 'saveLawyer', {
    token: adminToken,
    body: lawyerFields(overrides),
  });
  if (statusCode !== 201) throw new Error(`Création de l'avocat refusée: ${JSON.stringify(body)}`);
  // Shown masked in the reply, as everywhere: revealed as an admin would, on demand.
  const { body: revealed } = await callRoute<{ licenseKey: string | null }>(app, 'revealLawyerLicenseKey', {
    token: adminToken,
    params: { id: body.lawyer.id },
  });
  const licenseKey = revealed.licenseKey;
  if (!licenseKey) throw new Error('Avocat créé sans clé de licence');
  const reply = await signIn(app, licenseKey);
  if (!reply.valid || !reply.token) throw new Error(`Connexion refusée: ${reply.error}`);
  const keyHash = createLicenseKeyVault(app.keys).hash(licenseKey);
  return { lawyer: body.lawyer, licenseKey, keyHash, token: reply.token, email: body.lawyer.email };
}

/** A valid workflow body for `lawyerEmail`. */
export function workflowFields(lawyerEmail: string, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Gestion des clients',
    description: 'Traite les e-mails entrants et crée les dossiers clients',
    webhookUrl: 'https://n8n.example.com/webhook/client-management',
    lawyerEmail,
    type: 'client_management',
    ...overrides,
  };
}

/** A signed-in admin and the e-mail of a lawyer he created, whose automations he can then create. */
export async function adminWithLawyer(app: TestApp): Promise<{ admin: string; lawyerEmail: string }> {
  const admin = (await issueAndSignIn(app, 'admin', 'associe@cabinet.fr')).token;
  const { body } = await callRoute<LawyerSaveReply>(app, 'saveLawyer', {
    token: admin,
    body: lawyerFields(),
  });
  return { admin, lawyerEmail: body.lawyer.email };
}
