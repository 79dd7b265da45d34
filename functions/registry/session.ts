import type { HandlerFactory } from '../registry';
import { createSignOutHandler } from '../sign-out';
import { createVerifyLicenseHandler } from '../verify-license';

export const SESSION_HANDLERS: Record<string, HandlerFactory> = {
  'verify-license': createVerifyLicenseHandler,
  'sign-out': createSignOutHandler,
};
