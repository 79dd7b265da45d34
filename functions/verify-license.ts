import { SignInService } from './domain/sign-in';
import { apiHandler, withStatus } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';
import { declaredFunction, lambdaEntry } from './runtime/entry';

/** POST /api/verify-license: checks a licence key and opens a session (spec §7 verify-license). */
const create = (deps: AppDependencies) =>
  apiHandler(deps, {
    verifyLicense: async ({ body, clientAddress }) => {
      const signIn = new SignInService(deps.table, await deps.appKeys(), deps.clock);
      const outcome = await signIn.verify(body.licenseKey, await clientAddress());
      return outcome.statusCode === 200 ? outcome.reply : withStatus(outcome.statusCode, outcome.reply);
    },
  });

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createVerifyLicenseHandler = declaredFunction('verify-license', create);

export const handler = lambdaEntry('verify-license', createVerifyLicenseHandler);
