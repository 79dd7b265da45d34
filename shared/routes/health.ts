import {
  ConnectionTestReply,
  HealthDashboard,
  HealthSettings,
  HealthSettingsReply,
  WorkflowHealthDetail,
  WorkflowHealthList,
  WorkflowHealthQuery,
} from '../schemas/health';
import { Workflow } from '../schemas/workflow';
import type { RouteDefinition } from './route-definition';

/**
 * Automation health: states, dashboard, 'Reprendre', 'Tester la connexion' and the
 * settings of the automatic pause. Admin: every automation; lawyer or notary: his own.
 */
export const HEALTH_ROUTES = {
  /** The health of the automations whose cards are shown (their ids, at most 50). */
  workflowsHealth: {
    method: 'GET',
    path: '/api/health/workflows',
    handler: 'automation-health',
    access: 'signed-in',
    query: WorkflowHealthQuery,
    response: WorkflowHealthList,
  },
  /** One workflow's health with its 24-hour and 7-day figures (the history dialog). */
  workflowHealth: {
    method: 'GET',
    path: '/api/workflows/{id}/health',
    handler: 'automation-health',
    access: 'signed-in',
    response: WorkflowHealthDetail,
  },
  /** Deliveries per hour over 24 hours and the automations in failure: everyone's or his own. */
  healthDashboard: {
    method: 'GET',
    path: '/api/health/dashboard',
    handler: 'automation-health',
    access: 'signed-in',
    response: HealthDashboard,
  },
  /** 'Reprendre': scheduling back on after the automatic pause. */
  resumeWorkflow: {
    method: 'POST',
    path: '/api/workflows/{id}/resume',
    handler: 'automation-health',
    access: 'signed-in',
    response: Workflow,
  },
  /** 'Tester la connexion': one signed test call, recorded as a test. */
  testWorkflowConnection: {
    method: 'POST',
    path: '/api/workflows/{id}/test-connection',
    handler: 'automation-health',
    access: 'signed-in',
    response: ConnectionTestReply,
  },
  healthSettings: {
    method: 'GET',
    path: '/api/health/settings',
    handler: 'automation-health',
    access: 'admin',
    response: HealthSettingsReply,
  },
  updateHealthSettings: {
    method: 'PUT',
    path: '/api/health/settings',
    handler: 'automation-health',
    access: 'admin',
    request: HealthSettings,
    response: HealthSettingsReply,
  },
} as const satisfies Record<string, RouteDefinition>;
