import type { RouteDefinition } from './route-definition';

/** The scheduler, manual runs and execution history. */
export const SCHEDULING_ROUTES = {} as const satisfies Record<string, RouteDefinition>;
