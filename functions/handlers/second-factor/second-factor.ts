import { apiHandler } from '../../http/route-handler';
import type { AppDependencies } from '../../runtime/dependencies';
import { declaredFunction, lambdaEntry } from '../../runtime/entry';
import { secondFactorServiceOf } from '../../runtime/services/second-factor';

/**
 * /api/second-factor/*: the second step of a sign-in (passkey, authenticator code, recovery code),
 * enrolment, the step-up before sensitive actions, and an admin's reset of another licence's factor.
 */
const create = (deps: AppDependencies) => {
  const service = async () => secondFactorServiceOf(deps, await deps.appKeys());
  return apiHandler(deps, {
    secondFactorStatus: async ({ session }) => (await service()).status(session),
    startTotpEnrolment: async ({ session }) => (await service()).startTotp(session),
    confirmTotpEnrolment: async ({ session, body }) => (await service()).confirmTotp(session, body.code),
    passkeyRegistrationOptions: async ({ session }) => (await service()).passkeyRegistrationOptions(session),
    registerPasskey: async ({ session, body }) => (await service()).registerPasskey(session, body.credential),
    passkeyAuthenticationOptions: async ({ session }) =>
      (await service()).passkeyAuthenticationOptions(session),
    verifySecondFactor: async ({ session, body }) => (await service()).verify(session, body),
    resetSecondFactor: async ({ session, body }) => {
      await (await service()).reset(session, body.licenseKey);
      return { success: true as const };
    },
  });
};

/** The factory, held to its declared needs (`functions/needs.ts`). */
export const createSecondFactorHandler = declaredFunction('second-factor', create);

export const handler = lambdaEntry('second-factor', createSecondFactorHandler);
