import { SignOutReply, VerifyLicenseReply, VerifyLicenseRequest } from '../schemas/session';
import type { RouteDefinition } from './route-definition';

/** Sign-in and sign-out. */
export const SESSION_ROUTES = {
  verifyLicense: {
    method: 'POST',
    path: '/api/verify-license',
    handler: 'verify-license',
    access: 'public',
    request: VerifyLicenseRequest,
    response: VerifyLicenseReply,
  },
  signOut: {
    method: 'POST',
    path: '/api/sign-out',
    handler: 'sign-out',
    access: 'signed-in',
    response: SignOutReply,
  },
} as const satisfies Record<string, RouteDefinition>;
