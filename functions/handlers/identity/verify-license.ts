import { TooManyAttemptsError } from '../../domain/core/errors';
import { METRIC } from '../../domain/core/metrics';
import { deviceCookieIn } from '../../domain/identity/device-cookie';
import { statusOfClass } from '../../http/error-statuses';
import { apiHandler, withStatus } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { signInServiceOf } from '../../runtime/services/identity';

const TOO_MANY_ATTEMPTS = statusOfClass(TooManyAttemptsError);

/** POST /api/verify-license: checks a licence key and opens a session (spec §7 verify-license). */
const create = (deps: AppDependencies) =>
  apiHandler(deps, {
    verifyLicense: async ({ body, clientAddress, cookies }) => {
      const signIn = signInServiceOf(deps, await deps.appKeys());
      const outcome = await signIn.verify(body.licenseKey, await clientAddress(), deviceCookieIn(cookies));
      if (outcome.throttled) deps.metrics.count(METRIC.signInThrottled);
      else if (!outcome.reply.valid) deps.metrics.count(METRIC.signInFailed);
      // The refusal keeps the sign-in reply's shape (the form reads `valid`), so it is not an error.
      return outcome.throttled ? withStatus(TOO_MANY_ATTEMPTS, outcome.reply) : outcome.reply;
    },
  });

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createVerifyLicenseHandler = declaredFunction('verify-license', create);

export const handler = lambdaEntry('verify-license', createVerifyLicenseHandler);
