import { TooManyAttemptsError } from './domain/errors';
import { METRIC } from './domain/metrics';
import { SignInService } from './domain/sign-in';
import { statusOfClass } from './http/error-statuses';
import { apiHandler, lambdaEntry, withStatus } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

const TOO_MANY_ATTEMPTS = statusOfClass(TooManyAttemptsError);

/** POST /api/verify-license: checks a licence key and opens a session (spec §7 verify-license). */
export const createVerifyLicenseHandler = (deps: AppDependencies) =>
  apiHandler(deps, {
    verifyLicense: async ({ body, clientAddress }) => {
      const signIn = new SignInService(deps.table, await deps.appKeys(), deps.clock);
      const outcome = await signIn.verify(body.licenseKey, clientAddress);
      if (outcome.throttled) deps.metrics.count(METRIC.signInThrottled);
      else if (!outcome.reply.valid) deps.metrics.count(METRIC.signInFailed);
      // The refusal keeps the sign-in reply's shape (the form reads `valid`), so it is not an error.
      return outcome.throttled ? withStatus(TOO_MANY_ATTEMPTS, outcome.reply) : outcome.reply;
    },
  });

export const handler = lambdaEntry(createVerifyLicenseHandler);
