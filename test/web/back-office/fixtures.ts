import type { Lawyer, Workflow } from '../../../shared';
import type { WorkflowHealth } from '../../../shared/schemas/health';

/** A lawyer as the API lists him. */
export function lawyerFixture(overrides: Partial<Lawyer> = {}): Lawyer {
  return {
    id: '6f1c1c40-8a52-4d39-9d1d-3f3b5d1e2a01',
    firstName: 'Camille',
    lastName: 'Martin',
    email: 'camille.martin.cabinet@gmail.com',
    mainEmail: 'contact@cabinet-martin.fr',
    emailSignature: null,
    reminderFrequency: 7,
    phoneNumber: '0612345678',
    officeName: 'Cabinet Martin',
    licenseKey: 'NOTARY-AB12CD34',
    hasGooglePassword: true,
    hasGoogleCredentials: false,
    createdAt: '2026-11-20T09:00:00.000Z',
    updatedAt: '2026-11-20T09:00:00.000Z',
    licenseEmailUndeliveredAt: null,
    ...overrides,
  };
}

/** A workflow as the API lists it. */
export function workflowFixture(overrides: Partial<Workflow> = {}): Workflow {
  return {
    id: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0aa',
    name: 'Relance des pièces',
    description: 'Relance les clients pour les pièces manquantes',
    webhookUrl: 'https://n8n.cabinet.fr/webhook/relance',
    lawyerEmail: 'camille.martin.cabinet@gmail.com',
    active: true,
    type: 'client_reminder',
    folderId: null,
    cronSettings: { enabled: false, interval: 1, lastRun: null, nextRun: null },
    createdAt: '2026-11-21T09:00:00.000Z',
    updatedAt: '2026-11-21T09:00:00.000Z',
    ...overrides,
  };
}

/** The health of a workflow the automatic pause stopped after 5 failed runs (issue 16). */
export function pausedHealthFixture(
  workflowId: string,
  overrides: Partial<WorkflowHealth> = {},
): WorkflowHealth {
  return {
    workflowId,
    state: 'paused',
    lastSuccessAt: null,
    lastFailureAt: '2026-11-23T10:00:00.000Z',
    lastFailureMessage: 'Erreur serveur du webhook',
    lastFailureStatus: 500,
    consecutiveFailures: 5,
    pausedAt: '2026-11-23T10:00:01.000Z',
    pauseReason: 'Suspendue après 5 échecs consécutifs — dernier message : Erreur serveur du webhook',
    ...overrides,
  };
}
