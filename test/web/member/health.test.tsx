import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { WorkflowHealth } from '../../../shared/schemas/health';
import { lawyerFixture, pausedHealthFixture, workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { openAsMember } from './support';

const paused = workflowFixture({
  id: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f016',
  name: 'Relance en panne',
  type: 'client_reminder',
  cronSettings: { enabled: false, interval: 1, lastRun: null, nextRun: null },
});
const health = (overrides: Partial<WorkflowHealth> = {}) => pausedHealthFixture(paused.id, overrides);
const reason = health().pauseReason ?? '';

function card(name: string): HTMLElement {
  const item = screen.getByText(name).closest('li');
  if (!item) throw new Error(`Aucune carte « ${name} »`);
  return item;
}

describe('automation health on the member cards', () => {
  it("shows 'Suspendue' with its reason, and 'Reprendre' turns scheduling back on", async () => {
    let resumed = false;
    const { app, network } = openAsMember('lawyer', '/lawyer/workflows', {
      workflows: [paused],
      override: (request) => {
        if (request.url.includes('/api/health/workflows')) {
          return jsonResponse(200, {
            workflows: [resumed ? health({ state: 'failing', pausedAt: null, pauseReason: null }) : health()],
            nextCursor: null,
          });
        }
        if (request.url.endsWith(`/api/workflows/${paused.id}/resume`)) {
          resumed = true;
          return jsonResponse(200, { ...paused, cronSettings: { ...paused.cronSettings, enabled: true } });
        }
        return undefined;
      },
    });

    expect(await within(await waitFor(() => card('Relance en panne'))).findByText('Suspendue')).toBeVisible();
    expect(within(card('Relance en panne')).getByText(reason)).toBeVisible();
    await app.user.click(
      screen.getByRole('button', { name: 'Reprendre la planification de Relance en panne' }),
    );

    expect(await screen.findByText('Planification reprise')).toBeVisible();
    expect(network.to(`/api/workflows/${paused.id}/resume`).map((request) => request.method)).toEqual([
      'POST',
    ]);
    expect(await within(card('Relance en panne')).findByText('En échec')).toBeVisible();
    expect(
      (
        within(card('Relance en panne')).getByRole('checkbox', {
          name: 'Planification automatique',
        }) as HTMLInputElement
      ).checked,
    ).toBe(true);
    expect(within(card('Relance en panne')).queryByRole('button', { name: /Reprendre/ })).toBeNull();
  });

  it('shows the switch off once the health says the pause came after the list was read', async () => {
    // The list was read at 09:00, the pause landed at 10:00:01: the copy still has the switch on.
    const readBefore = { ...paused, cronSettings: { ...paused.cronSettings, enabled: true } };
    const keptOn = workflowFixture({
      id: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f017',
      name: 'Relance remise en route',
      cronSettings: { enabled: true, interval: 1, lastRun: null, nextRun: null },
      // Switched on again after its pause, before the health's next read.
      updatedAt: '2026-11-23T10:05:00.000Z',
    });
    openAsMember('lawyer', '/lawyer/workflows', {
      workflows: [readBefore, keptOn],
      override: (request) =>
        request.url.includes('/api/health/workflows')
          ? jsonResponse(200, {
              workflows: [health(), health({ workflowId: keptOn.id })],
              nextCursor: null,
            })
          : undefined,
    });
    const schedulingSwitch = (name: string) =>
      within(card(name)).getByRole('checkbox', { name: 'Planification automatique' }) as HTMLInputElement;

    expect(await within(await waitFor(() => card('Relance en panne'))).findByText('Suspendue')).toBeVisible();
    await waitFor(() => expect(schedulingSwitch('Relance en panne').checked).toBe(false));
    expect(schedulingSwitch('Relance remise en route').checked).toBe(true);
  });

  it('shows the pause on the account page too: its scheduling badge follows the health', async () => {
    const readBefore = { ...paused, cronSettings: { ...paused.cronSettings, enabled: true } };
    openAsMember('lawyer', '/lawyer/account-config', {
      profile: lawyerFixture(),
      workflows: [readBefore],
      override: (request) =>
        request.url.includes('/api/health/workflows')
          ? jsonResponse(200, { workflows: [health()], nextCursor: null })
          : undefined,
    });

    expect(await within(await waitFor(() => card('Relance en panne'))).findByText('Suspendue')).toBeVisible();
    await waitFor(() => expect(within(card('Relance en panne')).getByText('Non planifié')).toBeVisible());
  });

  it("'Tester la connexion' says to check that the n8n workflow is active after a 404", async () => {
    const message =
      "Webhook introuvable - vérifiez l'URL (workflow inactif dans n8n ?). Le workflow n8n est probablement inactif, ou le chemin du webhook est erroné.";
    const { app, network } = openAsMember('lawyer', '/lawyer/workflows', {
      workflows: [paused],
      override: (request) =>
        request.url.endsWith(`/api/workflows/${paused.id}/test-connection`)
          ? jsonResponse(200, { success: false, status: 404, message })
          : undefined,
    });

    await app.user.click(
      await screen.findByRole('button', { name: 'Tester la connexion de Relance en panne' }),
    );

    expect(
      await screen.findByText(
        "Le serveur n8n ne connaît pas cette adresse. Vérifiez l'adresse et que le workflow est activé dans n8n.",
      ),
    ).toBeVisible();
    expect(network.to(`/api/workflows/${paused.id}/test-connection`)).toHaveLength(1);
  });
});

describe('health dashboard on the planning page', () => {
  it('says when its list of automations in failure is cut to the longest streaks', async () => {
    openAsMember('lawyer', '/lawyer/cron', {
      workflows: [paused],
      override: (request) =>
        request.url.endsWith('/api/health/dashboard')
          ? jsonResponse(200, {
              hours: [],
              failing: [
                {
                  workflowId: paused.id,
                  workflowName: paused.name,
                  state: 'paused',
                  consecutiveFailures: 5,
                  lastFailureAt: '2026-11-23T10:00:00.000Z',
                  lastFailureMessage: 'Erreur serveur du webhook',
                },
              ],
              failingTotal: 1234,
            })
          : undefined,
    });

    const table = await screen.findByRole('table', { name: 'Automatisations en échec' });
    expect(await within(table).findByText('Relance en panne')).toBeVisible();
    expect(
      screen.getByText(
        /^Les 1 plus longues séries d’échecs, sur 1\s234 automatisations en échec\. Les autres sont signalées sur leur carte\.$/,
      ),
    ).toBeVisible();
  });

  it('says nothing more when the list holds them all', async () => {
    openAsMember('lawyer', '/lawyer/cron', { workflows: [paused] });

    expect(await screen.findByText('Aucune automatisation en échec')).toBeVisible();
    expect(screen.queryByText(/plus longues séries/)).toBeNull();
  });
});
