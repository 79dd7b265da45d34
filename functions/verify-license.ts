import { METRIC } from './domain/metrics';
import { SignInService } from './domain/sign-in';
import { apiHandler, lambdaEntry, withStatus } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/** POST /api/verify-license: checks a licence key and opens a session (spec §7 verify-license). */
export const createVerifyLicenseHandler = (deps: AppDependencies) =>
  apiHandler(deps, {
    verifyLicense: async ({ body, clientAddress }) => {
      const signIn = new SignInService(deps.table, await deps.appKeys(), deps.clock);
      const outcome = await signIn.verify(body.licenseKey, clientAddress);
      if (outcome.statusCode === 429) deps.metrics.count(METRIC.signInThrottled);
      else if (!outcome.reply.valid) deps.metrics.count(METRIC.signInFailed);
      return outcome.statusCode === 200 ? outcome.reply : withStatus(outcome.statusCode, outcome.reply);
    },
  });

export const handler = lambdaEntry(createVerifyLicenseHandler);
