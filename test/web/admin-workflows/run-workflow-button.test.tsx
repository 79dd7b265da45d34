import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { Workflow } from '../../../shared';
import { isRunSuccess } from '../../../web/src/components/workflows/run-workflow-button';
import { workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { mockAdminBackend } from './admin-backend';
import { openAdminWorkflows } from './admin-page';

describe('isRunSuccess (spec §7: success, or a 2xx status, or neither success nor error)', () => {
  it.each([
    [{ success: true }, true],
    [{ success: true, status: 500 }, true],
    [{ success: false, status: 200 }, true],
    [{ success: false, status: 204 }, true],
    [{ status: 299, error: 'partiel' }, true],
    [{}, true],
    // The third rule read literally: a bare status, whatever it is, carries neither success nor error.
    [{ status: 500 }, true],
    [{ success: false, status: 300 }, false],
    [{ success: false, status: 199 }, false],
    [{ status: 500, error: 'Erreur serveur du webhook - vérifiez la configuration' }, false],
    [{ success: false }, false],
    [{ error: 'Aucune réponse reçue du serveur' }, false],
    [{ success: false, status: 404, error: "Webhook introuvable - vérifiez l'URL" }, false],
  ])('%j -> %s', (reply, expected) => {
    expect(isRunSuccess(reply)).toBe(expected);
  });
});

describe("'Exécuter' on an admin workflow card", () => {
  function open(workflow: Workflow, reply?: () => Response) {
    const backend = mockAdminBackend({ workflows: [workflow] }, (request) =>
      reply && request.url.endsWith('/api/execute-webhook') ? reply() : undefined,
    );
    return { backend, app: openAdminWorkflows() };
  }

  const runButton = (workflow: Workflow) => screen.getByRole('button', { name: `Exécuter ${workflow.name}` });
  // With a reason to show, Cloudscape keeps a disabled button focusable: aria-disabled.
  const locked = (workflow: Workflow) => runButton(workflow).getAttribute('aria-disabled') === 'true';

  it("says 'Workflow exécuté avec succès', stays disabled for 30 seconds, then runs again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const workflow = workflowFixture();
    const { backend, app } = open(workflow);
    await screen.findByRole('button', { name: `Exécuter ${workflow.name}` });

    await app.user.click(runButton(workflow));

    expect(await screen.findByText('Workflow exécuté avec succès')).toBeVisible();
    expect(backend.sent('POST', '/api/execute-webhook')[0]?.body).toMatchObject({
      workflowId: workflow.id,
      payload: { source: 'notary_app', trigger: 'manual' },
    });
    await waitFor(() => expect(locked(workflow)).toBe(true));
    await app.user.click(runButton(workflow));
    expect(backend.sent('POST', '/api/execute-webhook')).toHaveLength(1);
    await act(async () => {
      vi.advanceTimersByTime(29_000);
    });
    expect(locked(workflow)).toBe(true);
    await act(async () => {
      vi.advanceTimersByTime(1_000);
    });
    await waitFor(() => expect(locked(workflow)).toBe(false));
    await app.user.click(runButton(workflow));
    await waitFor(() => expect(backend.sent('POST', '/api/execute-webhook')).toHaveLength(2));
  });

  it("says 'Erreur lors de l'exécution du workflow: …' in plain words, the webhook's error behind 'Détails', and locks the button too", async () => {
    const workflow = workflowFixture();
    const { app } = open(workflow, () =>
      jsonResponse(200, {
        success: false,
        status: 500,
        error: 'Erreur serveur du webhook - vérifiez la configuration',
      }),
    );
    await screen.findByRole('button', { name: `Exécuter ${workflow.name}` });

    await app.user.click(runButton(workflow));

    expect(
      await screen.findByText(
        "Erreur lors de l'exécution du workflow: Le serveur n8n a rencontré une erreur en exécutant le workflow. Consultez ses exécutions dans n8n.",
      ),
    ).toBeVisible();
    await app.user.click(screen.getByRole('button', { name: 'Détails' }));
    expect(await screen.findByText('Erreur serveur du webhook - vérifiez la configuration')).toBeVisible();
    expect(screen.queryByText('Workflow exécuté avec succès')).toBeNull();
    await waitFor(() => expect(locked(workflow)).toBe(true));
  });

  it("says 'Erreur lors de l'exécution du workflow: …' with the API's message when the call is refused", async () => {
    const workflow = workflowFixture();
    const { app } = open(workflow, () =>
      jsonResponse(409, { error: 'Exécution déjà lancée il y a moins de 30 secondes. Veuillez patienter.' }),
    );
    await screen.findByRole('button', { name: `Exécuter ${workflow.name}` });

    await app.user.click(runButton(workflow));

    expect(
      await screen.findByText(
        "Erreur lors de l'exécution du workflow: Exécution déjà lancée il y a moins de 30 secondes. Veuillez patienter.",
      ),
    ).toBeVisible();
  });

  it('is disabled, and sends nothing, for a workflow without a webhook address', async () => {
    const workflow = workflowFixture({ webhookUrl: '' });
    const { backend, app } = open(workflow);
    await screen.findByRole('button', { name: `Exécuter ${workflow.name}` });

    await app.user.click(runButton(workflow));

    expect(locked(workflow)).toBe(true);
    expect(backend.sent('POST', '/api/execute-webhook')).toEqual([]);
  });
});
