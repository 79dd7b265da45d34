import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';

import type { EnrolmentReply, VerifySecondFactorReply } from '../../../../shared';
import { ApiError } from '../../api/api-errors';
import {
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  registerPasskey as sendPasskey,
  verifySecondFactor,
} from '../../api/second-factor';
import { SECOND_FACTOR_TEXT } from './strings';

/** Whether this browser can create and use passkeys at all. */
export const passkeysSupported = () => browserSupportsWebAuthn();

/** The browser's own failures (cancelled, timed out, no authenticator) as one French message. */
function browserFailure(error: unknown): never {
  if (error instanceof ApiError) throw error;
  throw new ApiError(SECOND_FACTOR_TEXT.passkeyCancelled, { cause: error });
}

/** Creates a passkey for the caller's licence and registers it (`token`: a pending session's). */
export async function registerPasskey(token?: string): Promise<EnrolmentReply> {
  const { options } = await passkeyRegistrationOptions(token);
  let credential: unknown;
  try {
    credential = await startRegistration({ optionsJSON: options as never });
  } catch (error) {
    browserFailure(error);
  }
  return sendPasskey({ credential: credential as never }, token);
}

/** Signs the server's challenge with one of the licence's passkeys. */
export async function verifyWithPasskey(token?: string): Promise<VerifySecondFactorReply> {
  const { options } = await passkeyAuthenticationOptions(token);
  let credential: unknown;
  try {
    credential = await startAuthentication({ optionsJSON: options as never });
  } catch (error) {
    browserFailure(error);
  }
  return verifySecondFactor({ method: 'passkey', credential: credential as never }, token);
}
