import {
  ConfirmTotpRequest,
  EnrolmentReply,
  PasskeyOptionsReply,
  RegisterPasskeyRequest,
  ResetSecondFactorReply,
  ResetSecondFactorRequest,
  SecondFactorStatus,
  TotpEnrolment,
  VerifySecondFactorReply,
  VerifySecondFactorRequest,
} from '../schemas/second-factor';
import type { RouteDefinition } from './route-definition';

/**
 * The second factor: the only calls a "second factor pending" session may make (status, enrolment
 * of an admin licence's first factor, the check), plus an admin's reset of another licence's factor.
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
