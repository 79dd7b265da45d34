import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { workflowFixture } from '../back-office/fixtures';
import { openAsMember } from './support';

const id = (n: number) => `0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f1${String(n).padStart(2, '0')}`;

const reminder = workflowFixture({ id: id(1), name: 'Relance des pièces', type: 'client_reminder' });
const sorting = workflowFixture({
  id: id(2),
  name: 'Classement des courriers',
  description: 'Range le courrier reçu',
  type: 'document_classification',
  active: false,
});
const hearings = workflowFixture({
  id: id(3),
  name: 'Relance audiences',
  description: 'Rappelle les audiences',
  type: 'client_reminder',
  active: false,
});

/** The names of the automations whose cards are drawn, in page order. */
function drawnNames(): string[] {
  return createWrapper(document.body)
    .findAllCards()
    .flatMap((cards) => cards.findItems())
    .map((item) => item.findCardHeader()?.getElement().textContent ?? '');
}

/** The count the search field shows under it. */
function resultsCount(): string | undefined {
  return (
    createWrapper(document.body).findTextFilter()?.findResultsCount().getElement().textContent ?? undefined
  );
}

describe('a member searches his own automations, on the server', () => {
  it('keeps the lawyer’s cards of both sections to the search, and says when nothing matches', async () => {
    const { network } = openAsMember('lawyer', '/lawyer/workflows', {
      workflows: [reminder, sorting, hearings],
    });
    await waitFor(() => expect(drawnNames()).toHaveLength(3));

    createWrapper(document.body).findTextFilter()?.findInput().setInputValue('relance');

    await waitFor(() => expect(drawnNames()).toEqual(['Relance des pièces', 'Relance audiences']));
    const searched = network
      .to('/api/workflows')
      .map((request) => new URL(request.url, 'http://localhost').searchParams)
      .filter((query) => query.get('q') === 'relance')
      .map((query) => query.get('active'));
    expect(searched.sort()).toEqual(['false', 'true']);
    expect(resultsCount()).toBe('2 résultats');

    createWrapper(document.body).findTextFilter()?.findInput().setInputValue('divorce');
    await waitFor(() =>
      expect(screen.getAllByText('Aucune automatisation ne correspond à votre recherche.')).toHaveLength(2),
    );
    expect(drawnNames()).toEqual([]);
  });

  it('shows the category and tags a search matched on the lawyer’s card', async () => {
    const tagged = workflowFixture({
      id: id(4),
      name: 'Suivi des dossiers',
      description: 'Relance les clients sans réponse',
      category: 'Droit de la famille',
      tags: ['divorce', 'urgent'],
    });
    openAsMember('lawyer', '/lawyer/workflows', { workflows: [reminder, tagged] });
    await waitFor(() => expect(drawnNames()).toHaveLength(2));

    createWrapper(document.body).findTextFilter()?.findInput().setInputValue('divorce');

    await waitFor(() => expect(drawnNames()).toEqual(['Suivi des dossiers']));
    const card = createWrapper(document.body).findCards()?.findItems()[0]?.getElement();
    // The reason it was found is on the card, as on the admin's.
    expect(card).toHaveTextContent('divorce');
    expect(card).toHaveTextContent('urgent');
    expect(card).toHaveTextContent('Droit de la famille');
  });

  it('keeps the notary’s tab to the search', async () => {
    const { network } = openAsMember('notary', '/notary/workflows', {
      workflows: [reminder, sorting, hearings],
    });
    await waitFor(() => expect(drawnNames()).toHaveLength(3));

    createWrapper(document.body).findTextFilter()?.findInput().setInputValue('courrier');

    await waitFor(() => expect(drawnNames()).toEqual(['Classement des courriers']));
    expect(
      network
        .to('/api/workflows')
        .some((request) => new URL(request.url, 'http://localhost').searchParams.get('q') === 'courrier'),
    ).toBe(true);
    expect(resultsCount()).toBe('1 résultat');
  });

  it('opens searched for the automation a health link names (?recherche=)', async () => {
    const { network } = openAsMember(
      'lawyer',
      `/lawyer/workflows?recherche=${encodeURIComponent('Relance audiences')}`,
      {
        workflows: [reminder, sorting, hearings],
      },
    );

    await waitFor(() => expect(drawnNames()).toEqual(['Relance audiences']));
    expect(createWrapper(document.body).findTextFilter()?.findInput().getInputValue()).toBe(
      'Relance audiences',
    );
    expect(
      network
        .to('/api/workflows')
        .some(
          (request) => new URL(request.url, 'http://localhost').searchParams.get('q') === 'Relance audiences',
        ),
    ).toBe(true);
  });
});
