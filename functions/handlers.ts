import { createAuditHandler } from './audit';
import { createAutomationHealthHandler } from './automation-health';
import { createCancelSubscriptionHandler } from './cancel-subscription';
import { createCheckSubscriptionHandler } from './check-subscription';
import { createCreateCheckoutHandler } from './create-checkout';
import { createCreatePromoCodeHandler } from './create-promo-code';
import { createCustomerPortalHandler } from './customer-portal';
import { createExecuteWebhookHandler } from './execute-webhook';
import { createExecutionsHandler } from './executions';
import { createFoldersHandler } from './folders';
import type { ApiHandler } from './http/api-event';
import { createLawyersHandler } from './lawyers';
import { createLicensesHandler } from './licenses';
import { createMeHandler } from './me';
import type { HandlerName } from './needs';
import { createRequestPortalLinkHandler } from './request-portal-link';
import type { AppDependencies } from './runtime/dependencies';
import { createSecondFactorHandler } from './second-factor';
import { createSignOutHandler } from './sign-out';
import { createStripeWebhookHandler } from './stripe-webhook';
import { createUpdateLicenseEmailHandler } from './update-license-email';
import { createVerifyLicenseHandler } from './verify-license';
import { createWorkflowSchedulerHandler } from './workflow-scheduler';
import { createWorkflowsHandler } from './workflows';

/** A handler file's factory: its Lambda handler over the dependencies of one world. */
export type HandlerFactory = (deps: AppDependencies) => ApiHandler;

/**
 * Every API handler's factory, for the worlds that serve the whole route table from one process
 * (the local runtime, the API tests). Keyed by `HandlerName`, derived from the route table: a
 * handler missing here, or one the table does not name, is a compile error. Lambda never loads
 * this file: each function's bundle starts from its own `functions/<name>.ts`.
 */
export const API_HANDLERS = {
  'verify-license': createVerifyLicenseHandler,
  'sign-out': createSignOutHandler,
  'second-factor': createSecondFactorHandler,
  lawyers: createLawyersHandler,
  me: createMeHandler,
  workflows: createWorkflowsHandler,
  folders: createFoldersHandler,
  licenses: createLicensesHandler,
  audit: createAuditHandler,
  'workflow-scheduler': createWorkflowSchedulerHandler,
  'execute-webhook': createExecuteWebhookHandler,
  executions: createExecutionsHandler,
  'automation-health': createAutomationHealthHandler,
  'create-checkout': createCreateCheckoutHandler,
  'check-subscription': createCheckSubscriptionHandler,
  'customer-portal': createCustomerPortalHandler,
  'request-portal-link': createRequestPortalLinkHandler,
  'cancel-subscription': createCancelSubscriptionHandler,
  'update-license-email': createUpdateLicenseEmailHandler,
  'create-promo-code': createCreatePromoCodeHandler,
  'stripe-webhook': createStripeWebhookHandler,
} as const satisfies Record<HandlerName, HandlerFactory>;
