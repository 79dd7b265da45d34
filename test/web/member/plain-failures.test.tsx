import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { MESSAGES } from '../../../shared';
import { PLAIN_FAILURES } from '../../../shared/execution-wording';
import type { DeliveryHour, WorkflowHealthDetail } from '../../../shared/schemas/health';
import { openSettings, pageLoaded } from '../admin-settings/settings-page';
import { pausedHealthFixture, workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { openAsMember } from './support';

const REFUSED = 'Erreur de connexion: connexion refusée (ECONNREFUSED)';
const REFUSED_PLAIN =
  "Le serveur n8n n'a pas répondu (connexion refusée). Vérifiez l'adresse ou que n8n est démarré.";

const workflow = workflowFixture({
  id: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f021',
  name: 'Relance injoignable',
  cronSettings: { enabled: false, interval: 1, lastRun: null, nextRun: null },
});
const paused = pausedHealthFixture(workflow.id, {
  lastFailureMessage: REFUSED,
  lastFailureStatus: null,
  pauseReason: `Suspendue après 5 échecs consécutifs — dernier message : ${REFUSED}`,
});
const detail: WorkflowHealthDetail = {
  ...paused,
  last24Hours: { runs: 12, succeeded: 6, successRate: 0.5, p95DurationMs: 100 },
  last7Days: { runs: 0, succeeded: 0, successRate: null, p95DurationMs: null },
};
const hour: DeliveryHour = {
  hour: '2026-11-23T09:00:00.000Z',
  succeeded: 3,
  retried: 0,
  failed: 2,
  deadLettered: 0,
  lagP95Ms: 2000,
};

function card(name: string): HTMLElement {
  const item = screen.getByText(name).closest('li');
  if (!item) throw new Error(`Aucune carte « ${name} »`);
  return item;
}

/** The lawyer's backend: this automation paused by refused connections, its history and health. */
function lawyerBackend(extra: (url: URL, method: string) => Response | undefined = () => undefined) {
  return {
    workflows: [workflow],
    override: (request: { url: string; method: string }) => {
      const url = new URL(request.url, 'http://localhost');
      if (url.pathname === '/api/health/workflows') return jsonResponse(200, { workflows: [paused] });
      if (url.pathname === `/api/workflows/${workflow.id}/health`) return jsonResponse(200, detail);
      if (url.pathname === `/api/workflows/${workflow.id}/executions`) {
        return jsonResponse(200, {
          executions: [
            {
              id: 'run-1',
              workflowId: workflow.id,
              trigger: 'schedule',
              startedAt: '2026-11-23T10:00:00.000Z',
              durationMs: 3,
              httpStatus: null,
              outcome: 'failed',
              message: REFUSED,
              attempt: 1,
            },
          ],
          nextCursor: null,
        });
      }
      if (url.pathname === '/api/health/dashboard') {
        return jsonResponse(200, {
          hours: [hour],
          failing: [
            {
              workflowId: workflow.id,
              workflowName: workflow.name,
              state: 'paused',
              consecutiveFailures: 5,
              lastFailureAt: paused.lastFailureAt,
              lastFailureMessage: REFUSED,
            },
          ],
          failingTotal: 1,
        });
      }
      return extra(url, request.method);
    },
  };
}

/** The 'Détails' expander holding `text`, closed (its text not shown) until pressed. */
async function openDetails(within: HTMLElement, text: string) {
  const section = createWrapper(within).findExpandableSection();
  expect(section?.findHeader().getElement().textContent).toBe('Détails');
  expect(section?.findExpandedContent()).toBeNull();
  section?.findExpandButton().click();
  await waitFor(() => expect(section?.findExpandedContent()?.getElement().textContent).toBe(text));
}

describe('a failed call in words a lawyer understands, the technical message behind Détails', () => {
  it('says why the card is paused in plain words', async () => {
    openAsMember('lawyer', '/lawyer/workflows', lawyerBackend());

    const item = await waitFor(() => card(workflow.name));
    await within(item).findByText('Suspendue');

    expect(
      within(item).getByText(`Suspendue après 5 échecs consécutifs — dernier message : ${REFUSED_PLAIN}`),
    ).toBeVisible();
    await openDetails(item, paused.pauseReason ?? '');
  });

  it("says the failure of 'Exécuter' in plain words in its toast", async () => {
    const { app } = openAsMember(
      'lawyer',
      '/lawyer/workflows',
      lawyerBackend((url) =>
        url.pathname === '/api/execute-webhook'
          ? jsonResponse(200, { success: false, error: REFUSED })
          : undefined,
      ),
    );

    await app.user.click(await screen.findByRole('button', { name: `Exécuter ${workflow.name}` }));

    const toast = await waitFor(() => {
      const item = createWrapper(document.body).findFlashbar()?.findItemsByType('error')[0];
      if (!item) throw new Error('Aucun message d’erreur');
      return item.getElement();
    });
    expect(within(toast).getByText(MESSAGES.workflow.executeWorkflowFailed(REFUSED_PLAIN))).toBeVisible();
    await openDetails(toast, REFUSED);
  });

  it("words the history's messages and its duration figure for a lawyer", async () => {
    const { app } = openAsMember('lawyer', '/lawyer/workflows', lawyerBackend());

    await app.user.click(await screen.findByRole('button', { name: `Historique ${workflow.name}` }));
    const dialog = await screen.findByRole('dialog');
    const table = await within(dialog).findByRole('table');

    expect(await within(table).findByText(REFUSED_PLAIN)).toBeVisible();
    expect(
      await within(dialog).findByText('12 exécution(s), 50 % de réussite, durée ≤ 100 ms dans 95 % des cas'),
    ).toBeVisible();
    expect(within(dialog).queryByText(/p95/)).toBeNull();
    const row = within(table).getByText(REFUSED_PLAIN).closest('td') as HTMLElement;
    await openDetails(row, REFUSED);
  });

  it("wraps the history's long messages in their column, not under the sticky 'Actions' one", async () => {
    const { app } = openAsMember('lawyer', '/lawyer/workflows', lawyerBackend());

    await app.user.click(await screen.findByRole('button', { name: `Historique ${workflow.name}` }));
    const table = await within(await screen.findByRole('dialog')).findByRole('table');
    const cell = (await within(table).findByText(REFUSED_PLAIN)).closest('td') as HTMLElement;

    // Cloudscape's wrapLines: the cell's content wraps instead of running on at one line's length.
    expect(cell.querySelector('[class*="body-cell-wrap"]')).not.toBeNull();
  });

  it("words the planning page's chart and failing list for a lawyer", async () => {
    openAsMember('lawyer', '/lawyer/cron', lawyerBackend());

    expect(
      await screen.findByRole('heading', { name: 'Délai avant exécution, dans 95 % des cas' }),
    ).toBeVisible();
    expect(screen.queryByText('Retard de déclenchement (p95)')).toBeNull();
    const failing = await screen.findByRole('table', { name: 'Automatisations en échec' });
    expect(await within(failing).findByText(REFUSED_PLAIN)).toBeVisible();
  });
});

describe('the admin keeps the technical view', () => {
  it("titles the dashboard's lag chart 'Retard de déclenchement (p95)'", async () => {
    openSettings({
      health: (request) =>
        new URL(request.url, 'http://localhost').pathname === '/api/health/dashboard'
          ? jsonResponse(200, { hours: [hour], failing: [], failingTotal: 0 })
          : jsonResponse(404, { error: 'Ressource introuvable.' }),
    });
    await pageLoaded();

    expect(await screen.findByRole('heading', { name: 'Retard de déclenchement (p95)' })).toBeVisible();
    expect(screen.queryByText(PLAIN_FAILURES.refused)).toBeNull();
  });
});
