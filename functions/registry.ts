import type { ApiHandler } from './http/api-event';
import { BILLING_HANDLERS } from './registry/billing';
import { DIRECTORY_HANDLERS } from './registry/directory';
import { SCHEDULING_HANDLERS } from './registry/scheduling';
import { SESSION_HANDLERS } from './registry/session';
import type { AppDependencies } from './runtime/dependencies';

/** A handler file's factory: builds its Lambda handler from the dependencies of one environment. */
export type HandlerFactory = (deps: AppDependencies) => ApiHandler;

/**
 * Every handler file's factory by its name in the route table, for the runtimes that build
 * handlers from their own dependencies (the local runtime, integration tests).
 */
export const HANDLER_FACTORIES: Record<string, HandlerFactory> = {
  ...SESSION_HANDLERS,
  ...DIRECTORY_HANDLERS,
  ...SCHEDULING_HANDLERS,
  ...BILLING_HANDLERS,
};
