import type { ApiHandler } from '../http/api-event';
import type { HandlerName } from '../needs';
import type { AppDependencies } from '../runtime/dependencies';
import { createCancelSubscriptionHandler } from './billing/cancel-subscription';
import { createCheckSubscriptionHandler } from './billing/check-subscription';
import { createCreateCheckoutHandler } from './billing/create-checkout';
import { createCreatePromoCodeHandler } from './billing/create-promo-code';
import { createCustomerPortalHandler } from './billing/customer-portal';
import { createDataExportsHandler } from './billing/data-exports';
import { createRequestPortalLinkHandler } from './billing/request-portal-link';
import { createStripeWebhookHandler } from './billing/stripe-webhook';
import { createAuditHandler } from './directory/audit';
import { createFoldersHandler } from './directory/folders';
import { createLawyersHandler } from './directory/lawyers';
import { createWorkflowsHandler } from './directory/workflows';
import { createAutomationHealthHandler } from './health/automation-health';
import { createLicensesHandler } from './identity/licenses';
import { createMeHandler } from './identity/me';
import { createSignOutHandler } from './identity/sign-out';
import { createUpdateLicenseEmailHandler } from './identity/update-license-email';
import { createVerifyLicenseHandler } from './identity/verify-license';
import { createCompletionReportHandler } from './scheduling/completion-report';
import { createExecuteWebhookHandler } from './scheduling/execute-webhook';
import { createExecutionsHandler } from './scheduling/executions';
import { createWorkflowSchedulerHandler } from './scheduling/workflow-scheduler';
import { createSecondFactorHandler } from './second-factor/second-factor';

/** A handler file's factory: its Lambda handler over the dependencies of one world. */
export type HandlerFactory = (deps: AppDependencies) => ApiHandler;

/**
 * Every API handler's factory, for the worlds that serve the whole route table from one process
 * (the local runtime, the API tests). Keyed by `HandlerName`, derived from the route table: a
 * handler missing here, or one the table does not name, is a compile error. Lambda never loads
 * this file: each function's bundle starts from its own `functions/handlers/<area>/<name>.ts`.
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
  'completion-report': createCompletionReportHandler,
  'automation-health': createAutomationHealthHandler,
  'create-checkout': createCreateCheckoutHandler,
  'check-subscription': createCheckSubscriptionHandler,
  'customer-portal': createCustomerPortalHandler,
  'request-portal-link': createRequestPortalLinkHandler,
  'cancel-subscription': createCancelSubscriptionHandler,
  'update-license-email': createUpdateLicenseEmailHandler,
  'create-promo-code': createCreatePromoCodeHandler,
  'stripe-webhook': createStripeWebhookHandler,
  'data-exports': createDataExportsHandler,
} as const satisfies Record<HandlerName, HandlerFactory>;
