import type { ApiHandler } from './http/api-event';
import type { AppDependencies } from './runtime/dependencies';
import { createSignOutHandler } from './sign-out';
import { createVerifyLicenseHandler } from './verify-license';

/**
 * Every handler file's factory by its name in the route table, for the runtimes that build
 * handlers from their own dependencies (the local runtime, integration tests).
 */
export const HANDLER_FACTORIES: Record<string, (deps: AppDependencies) => ApiHandler> = {
  'verify-license': createVerifyLicenseHandler,
  'sign-out': createSignOutHandler,
};
