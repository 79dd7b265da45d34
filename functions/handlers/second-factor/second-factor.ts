import { MESSAGES } from '../../../shared/messages';
import { NotFoundError } from '../../domain/core/errors';
import { PasskeyFactor } from '../../domain/second-factor/passkeys';
import { RememberedBrowsers } from '../../domain/second-factor/remembered-browsers';
import { SecondFactorReset } from '../../domain/second-factor/reset';
import { TotpFactor } from '../../domain/second-factor/totp';
import { SecondFactorCheck } from '../../domain/second-factor/verification';
import { idParameter } from '../../http/parameters';
import { apiHandler, withCookies } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { secondFactorDepsOf } from '../../runtime/services/second-factor';

/** A passkey's credential id in a path: base64url, as the browser library gives it. */
const PASSKEY_ID = /^[A-Za-z0-9_-]{1,1024}$/;

/**
 * /api/second-factor/*: the second step of a sign-in (passkey, authenticator code, recovery code),
 * enrolment and removal, the step-up before sensitive actions, the remembered browsers, and an
 * admin's reset of another licence's factor. Passing the factor sets the browser's device cookie.
 */
const create = (deps: AppDependencies) => {
  const context = async () => secondFactorDepsOf(deps, await deps.appKeys());
  const done = { success: true as const };
  return apiHandler(deps, {
    secondFactorStatus: async ({ session }) => new SecondFactorCheck(await context()).status(session),
    startTotpEnrolment: async ({ session }) => new TotpFactor(await context()).start(session),
    confirmTotpEnrolment: async ({ session, body, userAgent }) => {
      const { reply, cookie } = await new TotpFactor(await context()).confirm(session, body.code, {
        userAgent,
      });
      return withCookies([cookie], reply);
    },
    passkeyRegistrationOptions: async ({ session }) =>
      new PasskeyFactor(await context()).registrationOptions(session),
    registerPasskey: async ({ session, body, userAgent }) => {
      const { reply, cookie } = await new PasskeyFactor(await context()).register(session, body.credential, {
        userAgent,
      });
      return withCookies([cookie], reply);
    },
    passkeyAuthenticationOptions: async ({ session }) =>
      new PasskeyFactor(await context()).authenticationOptions(session),
    verifySecondFactor: async ({ session, body, userAgent }) => {
      const { reply, cookie } = await new SecondFactorCheck(await context()).verify(session, body, {
        userAgent,
      });
      return withCookies([cookie], reply);
    },
    removeTotp: async ({ session }) => {
      await new TotpFactor(await context()).remove(session);
      return done;
    },
    removePasskey: async ({ session, pathParameters }) => {
      const id = pathParameters.id ?? '';
      if (!PASSKEY_ID.test(id)) throw new NotFoundError(MESSAGES.secondFactor.passkeyNotFound);
      await new PasskeyFactor(await context()).remove(session, id);
      return done;
    },
    listRememberedBrowsers: async ({ session }) => ({
      browsers: await new RememberedBrowsers(await context()).list(session),
    }),
    forgetRememberedBrowser: async ({ session, pathParameters }) => {
      const id = idParameter(pathParameters, MESSAGES.secondFactor.browserNotFound);
      await new RememberedBrowsers(await context()).forget(session, id);
      return done;
    },
    resetSecondFactor: async ({ session, body }) => {
      await new SecondFactorReset(await context()).reset(session, body.licenseKey);
      return done;
    },
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createSecondFactorHandler = declaredFunction('second-factor', create);

export const handler = lambdaEntry('second-factor', createSecondFactorHandler);
