import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Workflow } from '../../../shared';
import { emptyBackend, jsonResponse, mockNetwork } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { countsReply, isGet, workflowListReply } from '../support/workflow-lists';
import { workflowFixture } from './fixtures';

describe('lawyer workflows (/lawyer/workflows, spec §2 and §4)', () => {
  const active = workflowFixture({ name: 'Gestion des clients', active: true });
  const pending = workflowFixture({
    id: '2c7e3a56-7c0e-4a55-b0f6-2c61a4d6f0bb',
    name: 'Classement des pièces',
    active: false,
    type: 'document_classification',
  });

  function open(workflows: Workflow[]) {
    const network = mockNetwork((request) => {
      if (isGet(request, '/api/workflows')) return workflowListReply(workflows, request.url);
      if (isGet(request, '/api/counts')) return countsReply(workflows);
      if (request.url.endsWith(`/api/workflows/${active.id}/toggle-scheduling`)) {
        return jsonResponse(200, { ...active, cronSettings: { ...active.cronSettings, enabled: true } });
      }
      return emptyBackend(request);
    });
    storeSessionOf('lawyer');
    return { network, app: renderApp('/lawyer/workflows') };
  }

  it('splits the active automations from those waiting for the administrator', async () => {
    open([active, pending]);

    expect(await screen.findByRole('heading', { name: 'Automatisations actives (1)' })).toBeVisible();
    expect(screen.getByRole('heading', { name: "En attente d'activation (1)" })).toBeVisible();
    // The counts and the lists are separate reads: the cards may be drawn after the headings.
    expect(await screen.findByText("En attente d'activation par l'administrateur")).toBeVisible();
  });

  it("turns scheduling on and says 'Planification activée avec succès'", async () => {
    const { app, network } = open([active]);
    await screen.findByRole('heading', { name: 'Automatisations actives (1)' });

    await app.user.click(await screen.findByRole('checkbox', { name: 'Planification automatique' }));

    expect(await screen.findByText('Planification activée avec succès')).toBeVisible();
    expect(network.to(`/api/workflows/${active.id}/toggle-scheduling`)).toHaveLength(1);
    expect(screen.getByText('Planifié (1 min)')).toBeVisible();
  });

  it("says 'Aucune automatisation trouvée pour votre compte' when he has none", async () => {
    open([]);

    expect(await screen.findByText('Aucune automatisation trouvée pour votre compte')).toBeVisible();
  });
});
