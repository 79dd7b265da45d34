import { createAuditHandler } from '../audit';
import { createFoldersHandler } from '../folders';
import { createLawyersHandler } from '../lawyers';
import { createLicensesHandler } from '../licenses';
import { createMeHandler } from '../me';
import type { HandlerFactory } from '../registry';
import { createWorkflowsHandler } from '../workflows';

export const DIRECTORY_HANDLERS: Record<string, HandlerFactory> = {
  lawyers: createLawyersHandler,
  me: createMeHandler,
  workflows: createWorkflowsHandler,
  folders: createFoldersHandler,
  licenses: createLicensesHandler,
  audit: createAuditHandler,
};
