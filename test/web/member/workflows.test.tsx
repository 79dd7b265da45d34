import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Workflow } from '../../../shared';
import { workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { isGet } from '../support/workflow-lists';
import { openAsMember } from './support';

const id = (n: number) => `0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0${String(n).padStart(2, '0')}`;

const scheduled = workflowFixture({
  id: id(1),
  name: 'Gestion des clients',
  type: 'client_management',
  cronSettings: { enabled: true, interval: 2, lastRun: null, nextRun: null },
});
const unscheduled = workflowFixture({ id: id(2), name: 'Relance des pièces', type: 'client_reminder' });
const pending = workflowFixture({
  id: id(3),
  name: 'Classement des pièces',
  type: 'document_classification',
  active: false,
});

/** The card of a workflow, found by its name. */
function card(name: string): HTMLElement {
  const item = screen.getByText(name).closest('li');
  if (!item) throw new Error(`Aucune carte « ${name} »`);
  return item;
}

/** A firm's `count` automations, numbered from the newest ('Automatisation 01') to the oldest. */
function manyWorkflows(count: number, overrides: Partial<Workflow> = {}): Workflow[] {
  return Array.from({ length: count }, (_, index) =>
    workflowFixture({
      id: `0b7e3a56-7c0e-4a55-b0f6-2c61a4d6${String(index + 1).padStart(4, '0')}`,
      name: `Automatisation ${String(index + 1).padStart(2, '0')}`,
      createdAt: new Date(Date.UTC(2026, 10, 21, 9) - index * 60_000).toISOString(),
      ...overrides,
    }),
  );
}

/** The names of the numbered automations whose cards are drawn. */
function drawnNames(): string[] {
  return screen.getAllByText(/^Automatisation \d+$/).map((name) => name.textContent ?? '');
}

describe('lawyer workflows (/lawyer/workflows, spec §2 and §4)', () => {
  it('counts two active and one pending, each card with its type and scheduling', async () => {
    openAsMember('lawyer', '/lawyer/workflows', { workflows: [scheduled, unscheduled, pending] });

    expect(await screen.findByRole('heading', { name: 'Automatisations actives (2)' })).toBeVisible();
    expect(screen.getByRole('heading', { name: "En attente d'activation (1)" })).toBeVisible();
    // The counts and each list are separate reads: the cards may be drawn after the headings.
    expect(await screen.findByText('Gestion des clients')).toBeVisible();
    expect(await screen.findByText('Classement des pièces')).toBeVisible();
    expect(within(card('Gestion des clients')).getByText('Planifié (2 min)')).toBeVisible();
    expect(within(card('Gestion des clients')).getByText('Gestion Client')).toBeVisible();
    expect(within(card('Relance des pièces')).getByText('Non planifié')).toBeVisible();
    expect(
      within(card('Relance des pièces')).queryByText("En attente d'activation par l'administrateur"),
    ).toBeNull();
    expect(
      within(card('Classement des pièces')).getByText("En attente d'activation par l'administrateur"),
    ).toBeVisible();
    expect(within(card('Classement des pièces')).getByText('Classement des Pièces')).toBeVisible();
  });

  it("draws a firm's 30 automations 12 at a time, the next page on request, counting all 30", async () => {
    const { app, network } = openAsMember('lawyer', '/lawyer/workflows', {
      workflows: [...manyWorkflows(30), pending],
    });
    const activePagesRead = () =>
      network.requests.filter(
        (request) =>
          isGet(request, '/api/workflows') &&
          new URL(request.url, 'http://localhost').searchParams.get('active') === 'true',
      );

    // The counts are the server's: all 30, though only the first 12 are read.
    expect(await screen.findByRole('heading', { name: 'Automatisations actives (30)' })).toBeVisible();
    expect(screen.getByRole('heading', { name: "En attente d'activation (1)" })).toBeVisible();
    await waitFor(() => expect(drawnNames()).toEqual(manyWorkflows(12).map((workflow) => workflow.name)));
    expect(activePagesRead()).toHaveLength(1);
    // One page of pending ones: no pagination for them, one for the active ones.
    expect(screen.getAllByRole('button', { name: 'Page suivante' })).toHaveLength(1);

    await app.user.click(screen.getByRole('button', { name: 'Page suivante' }));
    await waitFor(() =>
      expect(drawnNames()).toEqual(
        manyWorkflows(24)
          .slice(12)
          .map((workflow) => workflow.name),
      ),
    );
    await app.user.click(screen.getByRole('button', { name: 'Page suivante' }));
    await waitFor(() =>
      expect(drawnNames()).toEqual(
        manyWorkflows(30)
          .slice(24)
          .map((workflow) => workflow.name),
      ),
    );
    expect(activePagesRead()).toHaveLength(3);

    // Going back shows the page already read, without reading it again.
    await app.user.click(screen.getByRole('button', { name: 'Page 1' }));
    expect(drawnNames()).toEqual(manyWorkflows(12).map((workflow) => workflow.name));
    expect(activePagesRead()).toHaveLength(3);
  });

  it("turns scheduling off with the right request and 'Planification désactivée avec succès'", async () => {
    const { app, network } = openAsMember('lawyer', '/lawyer/workflows', {
      workflows: [scheduled],
      override: (request) =>
        request.url.endsWith(`/api/workflows/${scheduled.id}/toggle-scheduling`)
          ? jsonResponse(200, { ...scheduled, cronSettings: { ...scheduled.cronSettings, enabled: false } })
          : undefined,
    });
    const toggle = await screen.findByRole('checkbox', { name: 'Planification automatique' });
    expect((toggle as HTMLInputElement).checked).toBe(true);

    await app.user.click(toggle);

    expect(await screen.findByText('Planification désactivée avec succès')).toBeVisible();
    const sent = network.to(`/api/workflows/${scheduled.id}/toggle-scheduling`);
    expect(sent.map((request) => request.method)).toEqual(['POST']);
    expect(within(card('Gestion des clients')).getByText('Non planifié')).toBeVisible();
    expect(
      (screen.getByRole('checkbox', { name: 'Planification automatique' }) as HTMLInputElement).checked,
    ).toBe(false);
  });

  it("says 'Erreur lors de l'activation/désactivation de la planification' and keeps the switch when refused", async () => {
    const { app } = openAsMember('lawyer', '/lawyer/workflows', {
      workflows: [scheduled],
      override: (request) =>
        request.url.endsWith('/toggle-scheduling')
          ? jsonResponse(500, { error: 'Erreur interne' })
          : undefined,
    });

    await app.user.click(await screen.findByRole('checkbox', { name: 'Planification automatique' }));

    expect(
      await screen.findByText("Erreur lors de l'activation/désactivation de la planification"),
    ).toBeVisible();
    await waitFor(() =>
      expect(
        (screen.getByRole('checkbox', { name: 'Planification automatique' }) as HTMLInputElement).checked,
      ).toBe(true),
    );
  });

  it('shows the server’s state after a toggle whose reply was lost, so that a press again flips it once', async () => {
    // The server flips the switch on every toggle; its first reply is lost (a 502 from the gateway).
    let enabled = true;
    let toggles = 0;
    const stored = () => ({ ...scheduled, cronSettings: { ...scheduled.cronSettings, enabled } });
    const { app } = openAsMember('lawyer', '/lawyer/workflows', {
      workflows: [scheduled],
      override: (request) => {
        if (request.url.endsWith(`/api/workflows/${scheduled.id}/toggle-scheduling`)) {
          enabled = !enabled;
          toggles += 1;
          return toggles === 1 ? jsonResponse(502, { error: 'Erreur interne' }) : jsonResponse(200, stored());
        }
        return isGet(request, `/api/workflows/${scheduled.id}`) ? jsonResponse(200, stored()) : undefined;
      },
    });
    const toggle = () =>
      screen.getByRole('checkbox', { name: 'Planification automatique' }) as HTMLInputElement;
    await screen.findByRole('checkbox', { name: 'Planification automatique' });

    await app.user.click(toggle());

    expect(
      await screen.findByText("Erreur lors de l'activation/désactivation de la planification"),
    ).toBeVisible();
    await waitFor(() =>
      expect({ checked: toggle().checked, disabled: toggle().disabled }).toEqual({
        checked: false,
        disabled: false,
      }),
    );
    expect(within(card('Gestion des clients')).getByText('Non planifié')).toBeVisible();

    await app.user.click(toggle());

    expect(await screen.findByText('Planification activée avec succès')).toBeVisible();
    expect({ server: enabled, shown: toggle().checked }).toEqual({ server: true, shown: true });
  });

  it("opens the planning page from a card's 'Planification'", async () => {
    const { app } = openAsMember('lawyer', '/lawyer/workflows', { workflows: [unscheduled] });

    await screen.findByText('Relance des pièces');
    await app.user.click(within(card('Relance des pièces')).getByRole('button', { name: 'Planification' }));

    expect(app.pathname()).toBe('/lawyer/cron');
  });

  it("says 'Erreur lors du chargement des automatisations' when the list cannot be loaded", async () => {
    openAsMember('lawyer', '/lawyer/workflows', {
      override: (request) =>
        isGet(request, '/api/workflows') ? jsonResponse(500, { error: 'Erreur interne' }) : undefined,
    });

    // Said on the page (and in a toast): neither section's first page could be read.
    expect(
      (await screen.findAllByText('Erreur lors du chargement des automatisations')).length,
    ).toBeGreaterThan(0);
    expect(screen.queryByText(/^Automatisation \d+$/)).toBeNull();
  });
});

describe("notary workflows ('Mes Automatisations', /notary/workflows, spec §2)", () => {
  const notaryWorkflows: Workflow[] = [
    scheduled,
    workflowFixture({ id: id(4), name: 'Accueil des clients', type: 'client_management' }),
    pending,
  ];

  it('counts each category in its tab and shows only its cards', async () => {
    const { app } = openAsMember('notary', '/notary/workflows', { workflows: notaryWorkflows });

    const tabs = async () => (await screen.findAllByRole('tab')).map((tab) => tab.textContent?.trim() ?? '');
    expect(await tabs()).toEqual([
      'Toutes (3)',
      'Gestion Client (2)',
      'Classement des Pièces (1)',
      'Relance Dossier Client (0)',
    ]);
    expect(screen.getByText('Classement des pièces')).toBeVisible();

    await app.user.click(screen.getByRole('tab', { name: 'Gestion Client (2)' }));
    expect(screen.getByText('Accueil des clients')).toBeVisible();
    expect(screen.queryByText('Classement des pièces')).toBeNull();

    await app.user.click(screen.getByRole('tab', { name: 'Relance Dossier Client (0)' }));
    expect(screen.getByText('Aucune automatisation trouvée pour votre compte')).toBeVisible();
  });

  it("draws a tab's cards 12 at a time, its count and the others' exact", async () => {
    const { app } = openAsMember('notary', '/notary/workflows', {
      workflows: [...manyWorkflows(13, { type: 'client_management' }), pending],
    });

    expect(await screen.findByRole('tab', { name: 'Toutes (14)' })).toBeVisible();
    await app.user.click(screen.getByRole('tab', { name: 'Gestion Client (13)' }));
    expect(drawnNames()).toHaveLength(12);

    await app.user.click(screen.getByRole('button', { name: 'Page suivante' }));
    expect(drawnNames()).toEqual(['Automatisation 13']);
  });

  it("shows the 'en cours d'exécution' banner for the active scheduled ones and the §5 warning", async () => {
    openAsMember('notary', '/notary/workflows', { workflows: notaryWorkflows });

    expect(await screen.findByText(/^1 automatisation en cours d’exécution/)).toBeVisible();
    expect(
      screen.getByText(
        "N'ouvrez pas les e-mails traités par l'assistant et ne déplacez pas les pièces jointes : l'assistant les traite lui-même.",
      ),
    ).toBeVisible();
  });

  it('shows the empty-state card and no banner when he has no automation', async () => {
    openAsMember('notary', '/notary/workflows', { workflows: [] });

    // A level-2 heading right under the page's h1 (axe heading-order).
    expect(await screen.findByRole('heading', { level: 2, name: 'Aucune automatisation' })).toBeVisible();
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByText(/en cours d.exécution/)).toBeNull();
  });
});
