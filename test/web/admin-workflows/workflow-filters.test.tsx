import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lawyerFixture, pausedHealthFixture, workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { pickOption } from '../support/form-fields';
import { folderFixture, mockAdminBackend } from './admin-backend';
import { cardTitles, openAdminWorkflows } from './admin-page';

const sophie = lawyerFixture({
  id: crypto.randomUUID(),
  firstName: 'Sophie',
  lastName: 'Bernard',
  email: 'sophie@cabinet.fr',
});
const paul = lawyerFixture({
  id: crypto.randomUUID(),
  firstName: 'Paul',
  lastName: 'Girard',
  email: 'paul@cabinet.fr',
});
const succession = folderFixture({ name: 'Succession Dupont' });

const filed = workflowFixture({
  id: crypto.randomUUID(),
  name: 'Relance succession',
  lawyerEmail: sophie.email,
  folderId: succession.id,
  cronSettings: { enabled: true, interval: 1, lastRun: null, nextRun: null },
});
const stopped = workflowFixture({
  id: crypto.randomUUID(),
  name: 'Tri du courrier',
  lawyerEmail: paul.email,
  active: false,
});
const manual = workflowFixture({
  id: crypto.randomUUID(),
  name: 'Relance audiences',
  lawyerEmail: paul.email,
});

/** The filters of the all tab, in their order: lawyer, folder, state, health. */
function filters() {
  const cards = createWrapper(document.body).findCards();
  const [lawyer, folder, state, health] = cards ? createWrapper(cards.getElement()).findAllSelects() : [];
  if (!lawyer || !folder || !state || !health) throw new Error('Les filtres ne sont pas affichés');
  return { lawyer, folder, state, health };
}

/** The query strings of the automation lists the page asked for. */
function listQueries(network: ReturnType<typeof mockAdminBackend>) {
  return network
    .sent('GET', '/api/workflows')
    .map((request) => new URL(request.url, 'http://localhost').searchParams);
}

describe("the admin's filters of the automations, kept by the server", () => {
  it('keeps one lawyer’s automations, then those of a state, then a folder’s', async () => {
    const network = mockAdminBackend({
      lawyers: [sophie, paul],
      workflows: [filed, stopped, manual],
      folders: [succession],
    });
    openAdminWorkflows();
    await waitFor(() => expect(cardTitles()).toHaveLength(3));
    // The lists of the filters are read once opened, not with the page.
    expect(network.sent('GET', '/api/lawyers')).toEqual([]);

    filters().lawyer.findTrigger().focus();
    await pickOption(() => filters().lawyer, paul.email);
    await waitFor(() => expect(cardTitles().sort()).toEqual(['Relance audiences', 'Tri du courrier']));
    expect(listQueries(network).at(-1)?.get('lawyerEmail')).toBe(paul.email);

    await pickOption(() => filters().state, 'inactive');
    await waitFor(() => expect(cardTitles()).toEqual(['Tri du courrier']));
    expect(listQueries(network).at(-1)?.get('active')).toBe('false');

    await pickOption(() => filters().state, 'scheduled');
    expect(await screen.findByText('Aucune automatisation ne correspond à la recherche')).toBeVisible();

    await pickOption(() => filters().lawyer, '');
    await waitFor(() => expect(cardTitles()).toEqual(['Relance succession']));
    expect(listQueries(network).at(-1)?.get('scheduled')).toBe('true');
    expect(listQueries(network).at(-1)?.has('lawyerEmail')).toBe(false);

    await pickOption(() => filters().state, '');
    filters().folder.findTrigger().focus();
    await pickOption(() => filters().folder, succession.id);
    await waitFor(() => expect(cardTitles()).toEqual(['Relance succession']));
    expect(listQueries(network).at(-1)?.get('folderId')).toBe(succession.id);
    expect(filters().folder.findTrigger().getElement().textContent).toContain('Succession Dupont');
  });

  it('keeps the automations the automatic pause stopped, then those whose last run failed', async () => {
    // The server's health lists: the paused one, and the failing set (the paused one and another).
    const healthLists: Record<string, readonly (typeof filed)[]> = {
      paused: [stopped],
      failing: [stopped, manual],
    };
    const network = mockAdminBackend(
      { lawyers: [sophie, paul], workflows: [filed, stopped, manual], folders: [succession] },
      (request) => {
        const url = new URL(request.url, 'http://localhost');
        if (url.pathname === '/api/health/workflows') {
          const ids = url.searchParams.get('ids')?.split(',') ?? [];
          return jsonResponse(200, {
            workflows: ids.map((id) =>
              id === stopped.id
                ? pausedHealthFixture(id)
                : pausedHealthFixture(id, {
                    state: id === manual.id ? 'failing' : 'healthy',
                    pausedAt: null,
                    pauseReason: null,
                  }),
            ),
          });
        }
        const health = url.searchParams.get('health');
        if (url.pathname !== '/api/workflows' || !health) return undefined;
        return jsonResponse(200, { workflows: healthLists[health] ?? [], nextCursor: null, owners: [] });
      },
    );
    openAdminWorkflows();
    await waitFor(() => expect(cardTitles()).toHaveLength(3));

    await pickOption(() => filters().health, 'paused');
    await waitFor(() => expect(cardTitles()).toEqual(['Tri du courrier']));
    const card = screen.getByText('Tri du courrier').closest('li') as HTMLElement;
    await within(card).findByText('Suspendue');
    expect(card.textContent).toContain('Suspendue');
    expect(listQueries(network).at(-1)?.get('health')).toBe('paused');
    expect(filters().health.findTrigger().getElement().textContent).toContain('Suspendues');

    await pickOption(() => filters().health, 'failing');
    await waitFor(() => expect(cardTitles().sort()).toEqual(['Relance audiences', 'Tri du courrier']));
    expect(listQueries(network).at(-1)?.get('health')).toBe('failing');

    // 'Toutes': the list as first read (kept by the page since).
    await pickOption(() => filters().health, '');
    await waitFor(() => expect(cardTitles()).toHaveLength(3));
  });
});
