import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { SchedulerResult } from '../../../shared';
import { jsonResponse, mockNetwork, type SentRequest } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';

const STATUS = { lastScheduledRun: null, lastManualRun: null, deadLetterCount: 2 };

function result(overrides: Partial<SchedulerResult> = {}): SchedulerResult {
  return {
    success: true,
    timestamp: '2026-11-23T09:30:00.000Z',
    workflows_checked: 3,
    executions: [
      { workflowId: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0aa', workflowName: 'A', status: 'success' },
      { workflowId: '1b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0aa', workflowName: 'B', status: 'failed' },
    ],
    message: 'Planificateur: 1/2 workflows réussis',
    ...overrides,
  };
}

function open(scheduler: (request: SentRequest) => Response) {
  const network = mockNetwork((request) => {
    if (request.url.endsWith('/api/scheduler/status')) return jsonResponse(200, STATUS);
    if (request.url.endsWith('/api/workflow-scheduler')) return scheduler(request);
    if (request.url.endsWith('/api/dead-letters/redrive')) {
      return jsonResponse(200, {
        moved: 2,
        message: "2 exécution(s) en échec renvoyée(s) dans la file d'exécution",
      });
    }
    if (request.url.includes('/api/audit')) {
      return jsonResponse(200, {
        entries: [
          {
            id: 'a1',
            at: '2026-11-23T09:00:00.000Z',
            actorEmail: 'admin@cabinet.fr',
            action: 'lawyer.secrets.reveal',
            target: 'lawyer:6f1c1c40-8a52-4d39-9d1d-3f3b5d1e2a01',
          },
        ],
        nextCursor: null,
      });
    }
    return jsonResponse(404, { error: 'Ressource introuvable.' });
  });
  storeSessionOf('admin');
  return { network, app: renderApp('/admin/settings') };
}

describe('admin settings (spec §2 Paramètres Administrateur)', () => {
  it("shows 'Jamais' before any run, the status card and the audit trail", async () => {
    open(() => jsonResponse(200, result()));

    expect(await screen.findByText('Identifiants affichés')).toBeTruthy();
    expect(screen.getAllByText('Jamais')).toHaveLength(2);
    expect(screen.getByText('ACTIF')).toBeTruthy();
    expect(screen.getByText('1 min')).toBeTruthy();
  });

  it("runs the scheduler, sends 'manual', and shows the counts of the result", async () => {
    const { app, network } = open(() => jsonResponse(200, result()));
    await screen.findByText('ACTIF');

    await app.user.click(screen.getByRole('button', { name: 'Déclencher Maintenant' }));

    expect(
      await screen.findByText('Planificateur: 1/2 workflows réussis', { selector: '[class*="flash"] *' }),
    ).toBeTruthy();
    expect(network.to('/api/workflow-scheduler')[0]?.body).toMatchObject({ trigger: 'manual' });
    expect(screen.getByText('2 / 3')).toBeTruthy();
  });

  it("sends 'manual_force' with the forced option and says 'Exécution forcée'", async () => {
    const { app, network } = open(() => jsonResponse(200, result()));
    await screen.findByText('ACTIF');

    await app.user.click(screen.getByRole('checkbox', { name: /Exécution forcée/ }));
    await app.user.click(screen.getByRole('button', { name: 'Déclencher Maintenant' }));

    expect(await screen.findAllByText('Exécution forcée: 1/2 workflows réussis')).not.toHaveLength(0);
    expect(network.to('/api/workflow-scheduler')[0]?.body).toMatchObject({ trigger: 'manual_force' });
  });

  it("says 'Erreur du planificateur' when the call fails, and shows a failed run's error", async () => {
    const { app } = open(() => jsonResponse(409, { error: 'Planificateur déjà en cours' }));
    await screen.findByText('ACTIF');

    await app.user.click(screen.getByRole('button', { name: 'Déclencher Maintenant' }));

    expect(await screen.findByText('Erreur du planificateur: Planificateur déjà en cours')).toBeTruthy();
  });

  it('sends the dead-lettered runs back and says how many', async () => {
    const { app, network } = open(() => jsonResponse(200, result()));
    await screen.findByText('ACTIF');

    await app.user.click(await screen.findByRole('button', { name: 'Relancer les exécutions en échec' }));

    expect(
      await screen.findByText("2 exécution(s) en échec renvoyée(s) dans la file d'exécution"),
    ).toBeTruthy();
    expect(network.to('/api/dead-letters/redrive')).toHaveLength(1);
  });
});
