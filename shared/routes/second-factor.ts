import {
  ConfirmTotpRequest,
  EnrolmentReply,
  PasskeyOptionsReply,
  RegisterPasskeyRequest,
  RememberedBrowserList,
  ResetSecondFactorReply,
  ResetSecondFactorRequest,
  SecondFactorChangeReply,
  SecondFactorStatus,
  TotpEnrolment,
  VerifySecondFactorReply,
  VerifySecondFactorRequest,
} from '../schemas/second-factor';
import type { RouteDefinition } from './route-definition';

/**
 * The second factor: the only calls a "second factor pending" session may make (status, enrolment
 * of an admin licence's first factor, the check); from a full session, removing a factor and the
 * remembered browsers; an admin's reset of another licence's factor.
 */
export const SECOND_FACTOR_ROUTES = {
  secondFactorStatus: {
    method: 'GET',
    path: '/api/second-factor',
    handler: 'second-factor',
    access: 'second-factor',
    response: SecondFactorStatus,
  },
  startTotpEnrolment: {
    method: 'POST',
    path: '/api/second-factor/totp',
    handler: 'second-factor',
    access: 'second-factor',
    response: TotpEnrolment,
  },
  confirmTotpEnrolment: {
    method: 'POST',
    path: '/api/second-factor/totp/confirm',
    handler: 'second-factor',
    access: 'second-factor',
    request: ConfirmTotpRequest,
    response: EnrolmentReply,
  },
  passkeyRegistrationOptions: {
    method: 'POST',
    path: '/api/second-factor/passkey/registration-options',
    handler: 'second-factor',
    access: 'second-factor',
    response: PasskeyOptionsReply,
  },
  registerPasskey: {
    method: 'POST',
    path: '/api/second-factor/passkey',
    handler: 'second-factor',
    access: 'second-factor',
    request: RegisterPasskeyRequest,
    response: EnrolmentReply,
  },
  passkeyAuthenticationOptions: {
    method: 'POST',
    path: '/api/second-factor/passkey/authentication-options',
    handler: 'second-factor',
    access: 'second-factor',
    response: PasskeyOptionsReply,
  },
  verifySecondFactor: {
    method: 'POST',
    path: '/api/second-factor/verify',
    handler: 'second-factor',
    access: 'second-factor',
    request: VerifySecondFactorRequest,
    response: VerifySecondFactorReply,
  },
  // Removing a factor needs a recent check; like enrolling one, it ends every other session.
  removeTotp: {
    method: 'DELETE',
    path: '/api/second-factor/totp',
    handler: 'second-factor',
    access: 'signed-in',
    sensitive: true,
    response: SecondFactorChangeReply,
  },
  removePasskey: {
    method: 'DELETE',
    path: '/api/second-factor/passkeys/{id}',
    handler: 'second-factor',
    access: 'signed-in',
    sensitive: true,
    response: SecondFactorChangeReply,
  },
  // The browsers remembered for having passed the factor (device cookie), and forgetting one.
  listRememberedBrowsers: {
    method: 'GET',
    path: '/api/second-factor/browsers',
    handler: 'second-factor',
    access: 'signed-in',
    response: RememberedBrowserList,
  },
  forgetRememberedBrowser: {
    method: 'DELETE',
    path: '/api/second-factor/browsers/{id}',
    handler: 'second-factor',
    access: 'signed-in',
    response: SecondFactorChangeReply,
  },
  resetSecondFactor: {
    method: 'POST',
    path: '/api/second-factor/reset',
    handler: 'second-factor',
    access: 'admin',
    sensitive: true,
    request: ResetSecondFactorRequest,
    response: ResetSecondFactorReply,
  },
} as const satisfies Record<string, RouteDefinition>;
