import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { isRunSuccess } from '../../../web/src/components/workflows/run-workflow-button';
import { emptyBackend, jsonResponse, mockNetwork } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { isGet } from '../support/workflow-lists';
import { workflowFixture } from './fixtures';

describe('isRunSuccess (spec §7 execute-webhook)', () => {
  it.each([
    [{ success: true }, true],
    [{ success: false, status: 204 }, true],
    [{}, true],
    [{ success: false, status: 500, error: 'Erreur serveur du webhook - vérifiez la configuration' }, false],
    [{ error: 'Aucune réponse reçue du serveur' }, false],
  ])('%j counts as success: %s', (reply, expected) => {
    expect(isRunSuccess(reply)).toBe(expected);
  });
});

describe("'Exécuter' on the planning page (/lawyer/cron)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function open(reply: () => Response, workflow = workflowFixture()) {
    const network = mockNetwork((request) => {
      if (isGet(request, '/api/workflows')) return jsonResponse(200, { workflows: [workflow] });
      if (request.url.endsWith('/api/execute-webhook')) return reply();
      return emptyBackend(request);
    });
    storeSessionOf('lawyer');
    return { network, app: renderApp('/lawyer/cron') };
  }

  it("names the workflow to the server, says 'Workflow exécuté avec succès' and locks the button for 30 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const workflow = workflowFixture();
    const { app, network } = open(() => jsonResponse(200, { success: true, status: 200 }), workflow);
    const button = () => screen.getByRole('button', { name: `Exécuter ${workflow.name}` });
    // With a reason to show, Cloudscape keeps a disabled button focusable: aria-disabled.
    const locked = () => button().getAttribute('aria-disabled') === 'true';
    await screen.findByRole('button', { name: `Exécuter ${workflow.name}` });

    await app.user.click(button());

    expect(await screen.findByText('Workflow exécuté avec succès')).toBeVisible();
    expect(network.to('/api/execute-webhook')[0]?.body).toMatchObject({
      workflowId: workflow.id,
      payload: { source: 'notary_app', trigger: 'manual' },
    });
    expect(network.to('/api/execute-webhook')[0]?.body).not.toHaveProperty('webhookUrl');
    await waitFor(() => expect(locked()).toBe(true));
    await act(async () => {
      vi.advanceTimersByTime(29_000);
    });
    expect(locked()).toBe(true);
    await act(async () => {
      vi.advanceTimersByTime(1_000);
    });
    await waitFor(() => expect(locked()).toBe(false));
  });

  it("says 'Erreur lors de l'exécution du workflow' in plain words, the webhook's message behind 'Détails'", async () => {
    const { app } = open(() =>
      jsonResponse(200, { success: false, status: 404, error: "Webhook introuvable - vérifiez l'URL" }),
    );
    const workflow = workflowFixture();

    await app.user.click(await screen.findByRole('button', { name: `Exécuter ${workflow.name}` }));

    expect(
      await screen.findByText(
        "Erreur lors de l'exécution du workflow: Le serveur n8n ne connaît pas cette adresse. Vérifiez l'adresse et que le workflow est activé dans n8n.",
      ),
    ).toBeVisible();
    await app.user.click(screen.getByRole('button', { name: 'Détails' }));
    expect(await screen.findByText("Webhook introuvable - vérifiez l'URL")).toBeVisible();
  });

  it('shows the interval (60 when none) and the last run or Jamais', async () => {
    open(
      () => jsonResponse(200, { success: true }),
      workflowFixture({ cronSettings: { enabled: false, interval: null, lastRun: null, nextRun: null } }),
    );

    expect(await screen.findByText('60 minutes')).toBeVisible();
    expect(screen.getByText('Jamais')).toBeVisible();
  });
});
