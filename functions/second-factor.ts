import { SecondFactorService } from './domain/second-factor';
import { apiHandler, lambdaEntry } from './http/route-handler';
import type { AppDependencies } from './runtime/dependencies';

/**
 * /api/second-factor/*: the second step of a sign-in (passkey, authenticator code, recovery code),
 * enrolment, the step-up before sensitive actions, and an admin's reset of another licence's factor.
 */
export const createSecondFactorHandler = (deps: AppDependencies) => {
  const service = async () =>
    new SecondFactorService(deps.table, await deps.appKeys(), deps.clock, deps.secondFactor);
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

export const handler = lambdaEntry(createSecondFactorHandler);
