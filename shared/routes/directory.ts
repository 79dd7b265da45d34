import type { RouteDefinition } from './route-definition';

/** Lawyers, profile, workflows, folders, licences and the audit trail. */
export const DIRECTORY_ROUTES = {} as const satisfies Record<string, RouteDefinition>;
