import type { HandlerFactory } from '../registry';
import { createSecondFactorHandler } from '../second-factor';
import { createSignOutHandler } from '../sign-out';
import { createVerifyLicenseHandler } from '../verify-license';

export const SESSION_HANDLERS: Record<string, HandlerFactory> = {
  'verify-license': createVerifyLicenseHandler,
  'sign-out': createSignOutHandler,
  'second-factor': createSecondFactorHandler,
};
