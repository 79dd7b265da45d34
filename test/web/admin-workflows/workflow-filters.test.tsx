import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lawyerFixture, workflowFixture } from '../back-office/fixtures';
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

/** The filters of the all tab, in their order: lawyer, folder, state. */
function filters() {
  const cards = createWrapper(document.body).findCards();
  const [lawyer, folder, state] = cards ? createWrapper(cards.getElement()).findAllSelects() : [];
  if (!lawyer || !folder || !state) throw new Error('Les filtres ne sont pas affichés');
  return { lawyer, folder, state };
}

type SelectWrapper = ReturnType<typeof filters>['lawyer'];

/** Opens a filter's list, waits for its option (read from the server), and picks it. */
async function pick(select: () => SelectWrapper, value: string) {
  select().openDropdown();
  await waitFor(() => expect(select().findDropdown().findOptionByValue(value)).not.toBeNull());
  select().selectOptionByValue(value);
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
    await pick(() => filters().lawyer, paul.email);
    await waitFor(() => expect(cardTitles().sort()).toEqual(['Relance audiences', 'Tri du courrier']));
    expect(listQueries(network).at(-1)?.get('lawyerEmail')).toBe(paul.email);

    await pick(() => filters().state, 'inactive');
    await waitFor(() => expect(cardTitles()).toEqual(['Tri du courrier']));
    expect(listQueries(network).at(-1)?.get('active')).toBe('false');

    await pick(() => filters().state, 'scheduled');
    expect(await screen.findByText('Aucune automatisation ne correspond à la recherche')).not.toBeNull();

    await pick(() => filters().lawyer, '');
    await waitFor(() => expect(cardTitles()).toEqual(['Relance succession']));
    expect(listQueries(network).at(-1)?.get('scheduled')).toBe('true');
    expect(listQueries(network).at(-1)?.has('lawyerEmail')).toBe(false);

    await pick(() => filters().state, '');
    filters().folder.findTrigger().focus();
    await pick(() => filters().folder, succession.id);
    await waitFor(() => expect(cardTitles()).toEqual(['Relance succession']));
    expect(listQueries(network).at(-1)?.get('folderId')).toBe(succession.id);
    expect(filters().folder.findTrigger().getElement().textContent).toContain('Succession Dupont');
  });
});
