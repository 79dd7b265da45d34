import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Execution } from '../../../../shared';
import { EXPORT_MESSAGES, REPLAY_MESSAGES, REPORT_MESSAGES } from '../../../../shared/report-messages';
import type { WorkflowHealthDetail } from '../../../../shared/schemas/health';
import { mockAdminBackend } from '../../admin-workflows/admin-backend';
import { lawyerFixture, workflowFixture } from '../../back-office/fixtures';
import { openAsMember } from '../../member/support';
import { jsonResponse } from '../../support/fetch-mock';
import { renderApp } from '../../support/render-app';
import { storeSessionOf } from '../../support/sessions';

const workflow = workflowFixture({
  id: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0c1',
  name: 'Classement des e-mails',
});
const dueAt = '2026-11-23T10:00:00.000Z';

function run(id: string, overrides: Partial<Execution> = {}): Execution {
  return {
    id,
    workflowId: workflow.id,
    trigger: 'schedule',
    startedAt: dueAt,
    durationMs: 120,
    httpStatus: 200,
    outcome: 'success',
    message: 'Webhook exécuté avec succès',
    attempt: 1,
    runId: `${workflow.id}:${dueAt}`,
    report: null,
    ...overrides,
  } as Execution;
}

/** The workflow's own report of a failure. */
const failureReport = {
  state: 'failure',
  summary: 'Classement interrompu',
  items: null,
  error: 'Gmail : quota dépassé',
  reportedAt: dueAt,
} as const;

const history: Execution[] = [
  run('0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0e1', {
    startedAt: '2026-11-23T13:00:00.000Z',
    report: {
      state: 'success',
      summary: '3 e-mails classés, 2 pièces renommées',
      items: 5,
      reportedAt: dueAt,
    },
  }),
  run('0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0e2', {
    startedAt: '2026-11-23T12:00:00.000Z',
    report: failureReport,
  }),
  run('0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0e3', {
    startedAt: '2026-11-23T11:00:00.000Z',
    report: { state: 'missing', expectedBy: '2026-11-23T11:04:00.000Z' },
  }),
  run('0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0e4', {
    startedAt: '2026-11-23T10:30:00.000Z',
    trigger: 'test',
    runId: 'test-run',
  }),
  run('0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0e5', {
    startedAt: '2026-11-23T10:00:00.000Z',
    outcome: 'cancelled',
    httpStatus: null,
  }),
];

const health: WorkflowHealthDetail = {
  workflowId: workflow.id,
  state: 'failing',
  lastSuccessAt: '2026-11-23T13:00:00.000Z',
  lastFailureAt: '2026-11-23T12:00:00.000Z',
  lastFailureMessage: REPORT_MESSAGES.processingFailure('Gmail : quota dépassé'),
  lastFailureStatus: null,
  consecutiveFailures: 1,
  pausedAt: null,
  pauseReason: null,
  retried: 0,
  failed: 0,
  deadLettered: 0,
  reportedFailed: 1,
  lagP95Ms: null,
  last24Hours: { runs: 4, succeeded: 3, processingFailed: 1, successRate: 0.75, p95DurationMs: 250 },
  last7Days: { runs: 20, succeeded: 17, processingFailed: 3, successRate: 0.85, p95DurationMs: 250 },
} as WorkflowHealthDetail;

/** Each test opens a whole page, and the history a dialog with a table and the health: slow on a busy machine. */
const PAGE_TESTS = { timeout: 60_000 };

const LOCKED = 'Veuillez patienter 30 secondes entre deux exécutions';

/** What the server holds once a run was replayed: the replay first in the history, counted in the health. */
const replayed = run('0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0e6', {
  startedAt: '2026-11-23T14:00:00.000Z',
  trigger: 'replay',
  report: failureReport,
});
const healthAfterReplay = {
  ...health,
  reportedFailed: 2,
  last24Hours: { ...health.last24Hours, runs: 5, processingFailed: 2 },
  last7Days: { ...health.last7Days, runs: 21, processingFailed: 4 },
} as WorkflowHealthDetail;

function openHistory() {
  let replays = 0;
  const opened = openAsMember('lawyer', '/lawyer/workflows', {
    workflows: [workflow],
    override: (request) => {
      const path = new URL(request.url, 'http://localhost').pathname;
      if (path === `/api/workflows/${workflow.id}/executions` && request.method === 'GET') {
        return jsonResponse(200, {
          executions: replays > 0 ? [replayed, ...history] : history,
          nextCursor: null,
        });
      }
      if (path === `/api/workflows/${workflow.id}/health`)
        return jsonResponse(200, replays > 0 ? healthAfterReplay : health);
      if (path === `/api/workflows/${workflow.id}/executions/replay`) {
        replays += 1;
        return replays === 1
          ? jsonResponse(200, { success: true, status: 200, message: REPLAY_MESSAGES.done })
          : jsonResponse(429, { error: LOCKED });
      }
      return undefined;
    },
  });
  return opened;
}

const rowOf = (text: string) => {
  const row = screen.getByText(text).closest('tr');
  if (!row) throw new Error(`Aucune ligne « ${text} »`);
  return within(row);
};

describe('the history beside each delivery', PAGE_TESTS, () => {
  it("shows 'Terminé : …', 'Échec signalé par le workflow : …', 'Sans compte rendu', nothing for a run without a report, and the processing failures apart in the health", async () => {
    const { app } = openHistory();
    await app.user.click(await screen.findByRole('button', { name: `Historique ${workflow.name}` }));

    expect(await screen.findByText('Terminé : 3 e-mails classés, 2 pièces renommées')).toBeVisible();
    expect(screen.getByText('5 élément(s) traité(s)')).toBeVisible();
    expect(screen.getByText('Échec signalé par le workflow : Gmail : quota dépassé')).toBeVisible();
    expect(screen.getByText('Sans compte rendu')).toBeVisible();
    expect(screen.getAllByText(/^Terminé|^Échec signalé|^Sans compte rendu/)).toHaveLength(3);

    expect(await screen.findByText('Réception OK, traitement en échec')).toBeVisible();
    expect(screen.getByText('1 sur 24 heures, 3 sur 7 jours')).toBeVisible();
    expect(screen.getByText(/Réception OK, traitement en échec : Gmail : quota dépassé/)).toBeVisible();
  });

  it("'Actualiser l'historique' reads the health's figures with the runs: '24 heures' counts the run the table shows", async () => {
    // A run ends, and its workflow reports a failure, while the dialog is open.
    let ranSince = false;
    const later = run('0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0e7', {
      startedAt: '2026-11-23T14:00:00.000Z',
      report: failureReport,
    });
    const { app } = openAsMember('lawyer', '/lawyer/workflows', {
      workflows: [workflow],
      override: (request) => {
        const path = new URL(request.url, 'http://localhost').pathname;
        if (path === `/api/workflows/${workflow.id}/executions` && request.method === 'GET')
          return jsonResponse(200, {
            executions: ranSince ? [later, ...history] : history,
            nextCursor: null,
          });
        if (path === `/api/workflows/${workflow.id}/health`)
          return jsonResponse(200, ranSince ? healthAfterReplay : health);
        return undefined;
      },
    });
    await app.user.click(await screen.findByRole('button', { name: `Historique ${workflow.name}` }));
    expect(await screen.findByText(/^4 exécution\(s\), 75 % de réussite/)).toBeVisible();
    expect(screen.getAllByText(/^Échec signalé par le workflow/)).toHaveLength(1);

    ranSince = true;
    await app.user.click(screen.getByRole('button', { name: "Actualiser l'historique" }));

    await waitFor(() => expect(screen.getAllByText(/^Échec signalé par le workflow/)).toHaveLength(2));
    expect(await screen.findByText(/^5 exécution\(s\), 75 % de réussite/)).toBeVisible();
  });

  it("'Tester la connexion' in the history reads it again from the server: the test's run shows", async () => {
    let tested = false;
    const test = run('0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0e8', {
      startedAt: '2026-11-23T14:30:00.000Z',
      trigger: 'test',
      runId: 'test-run-2',
      report: { state: 'success', summary: '1 e-mail de test classé', items: 1, reportedAt: dueAt },
    });
    const { app } = openAsMember('lawyer', '/lawyer/workflows', {
      workflows: [workflow],
      override: (request) => {
        const path = new URL(request.url, 'http://localhost').pathname;
        if (path === `/api/workflows/${workflow.id}/executions` && request.method === 'GET')
          return jsonResponse(200, { executions: tested ? [test, ...history] : history, nextCursor: null });
        if (path === `/api/workflows/${workflow.id}/health`) return jsonResponse(200, health);
        if (path === `/api/workflows/${workflow.id}/test-connection`) {
          tested = true;
          return jsonResponse(200, { success: true, status: 200, message: 'Connexion réussie (HTTP 200)' });
        }
        return undefined;
      },
    });
    await app.user.click(await screen.findByRole('button', { name: `Historique ${workflow.name}` }));
    await screen.findByText('Sans compte rendu');

    await app.user.click(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: `Tester la connexion de ${workflow.name}`,
      }),
    );

    expect(await screen.findByText('Terminé : 1 e-mail de test classé')).toBeVisible();
  });

  it("'Rejouer' sends a run again and says so, tells a refusal in the product's words, and is never offered on a test or a cancelled run", async () => {
    const { app, network } = openHistory();
    await app.user.click(await screen.findByRole('button', { name: `Historique ${workflow.name}` }));
    await screen.findByText('Sans compte rendu');

    expect(screen.getAllByRole('button', { name: /^Rejouer l'exécution du/ })).toHaveLength(3);
    expect(rowOf('Test de connexion').queryByRole('button', { name: /Rejouer/ })).toBeNull();
    expect(rowOf('Annulé').queryByRole('button', { name: /Rejouer/ })).toBeNull();
    await app.user.click(rowOf('Sans compte rendu').getByRole('button', { name: /Rejouer/ }));

    expect(await screen.findByText(REPLAY_MESSAGES.done)).toBeVisible();
    expect(
      network.to(`/api/workflows/${workflow.id}/executions/replay`).map((request) => request.body),
    ).toEqual([
      { executionId: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0e3', startedAt: '2026-11-23T11:00:00.000Z' },
    ]);

    await app.user.click(rowOf('Sans compte rendu').getByRole('button', { name: /Rejouer/ }));
    expect(await screen.findByText(LOCKED)).toBeVisible();
  });

  it("after 'Rejouer', reads the history and its figures again, without closing the dialog", async () => {
    const { app } = openHistory();
    await app.user.click(await screen.findByRole('button', { name: `Historique ${workflow.name}` }));
    await screen.findByText('Sans compte rendu');
    expect(screen.getByText('1 sur 24 heures, 3 sur 7 jours')).toBeVisible();
    expect(screen.queryByText('Rejeu')).toBeNull();

    await app.user.click(rowOf('Sans compte rendu').getByRole('button', { name: /Rejouer/ }));

    expect(await screen.findByText('2 sur 24 heures, 4 sur 7 jours')).toBeVisible();
    expect(await screen.findByText('Rejeu')).toBeVisible();
    expect(screen.getByText(/^5 exécution\(s\)/)).toBeVisible();
  });
});

describe("'Exporter mes données'", PAGE_TESTS, () => {
  const building = {
    id: 'x1',
    lawyerId: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0d1',
    status: 'building',
    requestedAt: '2026-11-23T10:00:00.000Z',
    readyAt: null,
    expiresAt: null,
    sizeBytes: null,
    fileName: 'export-cabinet.zip',
    downloadUrl: null,
  };
  const ready = {
    ...building,
    status: 'ready',
    readyAt: '2026-11-23T10:01:00.000Z',
    expiresAt: '2026-11-23T11:01:00.000Z',
    sizeBytes: 2_400_000,
    downloadUrl: '/api/data-exports/files/x1?signature=abc',
  };

  it('lets the lawyer start an export, follows it while it is prepared, then offers the download', async () => {
    let current: unknown = null;
    const { app, network } = openAsMember('lawyer', '/lawyer/settings', {
      override: (request) => {
        const path = new URL(request.url, 'http://localhost').pathname;
        if (path === '/api/data-exports/current') return jsonResponse(200, { export: current });
        if (path === '/api/data-exports' && request.method === 'POST') {
          current = building;
          return jsonResponse(202, building);
        }
        return undefined;
      },
    });

    expect(await screen.findByText('Aucun export demandé.')).toBeVisible();
    await app.user.click(screen.getByRole('button', { name: 'Exporter mes données' }));
    expect(await screen.findByText(/préparation en cours/)).toBeVisible();
    expect(network.to('/api/data-exports').map((request) => request.body)).toEqual([{}]);

    current = ready;
    await app.user.click(screen.getByRole('button', { name: "Chargement de l'export" }));
    const link = await screen.findByRole('link', { name: /Télécharger l’archive \(2,4 Mo\)/ });
    expect(link.getAttribute('href')).toBe(ready.downloadUrl);
    expect(screen.getByText(/Export prêt\. Lien valable jusqu'au/)).toBeVisible();
  });

  it('says when an export failed, expired, or one is already being prepared', async () => {
    const current = { ...building, status: 'failed' };
    const { app } = openAsMember('notary', '/notary/settings', {
      override: (request) => {
        const path = new URL(request.url, 'http://localhost').pathname;
        if (path === '/api/data-exports/current') return jsonResponse(200, { export: current });
        if (path === '/api/data-exports' && request.method === 'POST') {
          return jsonResponse(409, { error: EXPORT_MESSAGES.alreadyRunning });
        }
        return undefined;
      },
    });

    expect(await screen.findByText(EXPORT_MESSAGES.failed)).toBeVisible();
    await app.user.click(screen.getByRole('button', { name: 'Nouvel export' }));
    expect(await screen.findByText(EXPORT_MESSAGES.alreadyRunning)).toBeVisible();
  });

  it("tells a licence without a profile to complete its account, instead of 'Impossible de charger'", async () => {
    openAsMember('lawyer', '/lawyer/settings', {
      override: (request) =>
        request.url.includes('/api/data-exports/current')
          ? jsonResponse(404, { error: EXPORT_MESSAGES.noProfile })
          : undefined,
    });

    expect(await screen.findByText(EXPORT_MESSAGES.noProfile)).toBeVisible();
    expect(screen.queryByText("Impossible de charger l'état de l'export")).toBeNull();
  });

  it('says when the download link has expired, and offers a new export', async () => {
    openAsMember('lawyer', '/lawyer/settings', {
      override: (request) =>
        request.url.includes('/api/data-exports/current')
          ? jsonResponse(200, { export: { ...ready, status: 'expired', downloadUrl: null } })
          : undefined,
    });

    expect(await screen.findByText(EXPORT_MESSAGES.expired)).toBeVisible();
    expect(screen.queryByRole('link', { name: /Télécharger/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Nouvel export' })).toBeVisible();
  });

  it('lets the admin export the firm of the lawyer whose details he opened', async () => {
    const lawyer = lawyerFixture();
    storeSessionOf('admin');
    const network = mockAdminBackend({ lawyers: [lawyer] }, (request) => {
      const path = new URL(request.url, 'http://localhost').pathname;
      if (path === '/api/data-exports/current') return jsonResponse(200, { export: null });
      if (path === '/api/data-exports' && request.method === 'POST')
        return jsonResponse(202, { ...building, lawyerId: lawyer.id });
      return undefined;
    });
    const app = renderApp('/admin/lawyers');
    const name = `${lawyer.firstName} ${lawyer.lastName}`;

    await app.user.click(await screen.findByRole('button', { name: `Détails de ${name}` }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(await dialog.findByText(`Exporter les données de ${name}`)).toBeVisible();
    await app.user.click(dialog.getByRole('button', { name: 'Exporter les données' }));

    expect(await dialog.findByText(/préparation en cours/)).toBeVisible();
    await waitFor(() =>
      expect(network.to('/api/data-exports').map((request) => request.body)).toEqual([
        { lawyerId: lawyer.id },
      ]),
    );
    expect(
      network.requests.some((request) =>
        request.url.includes(`/api/data-exports/current?lawyerId=${lawyer.id}`),
      ),
    ).toBe(true);
  });
});
