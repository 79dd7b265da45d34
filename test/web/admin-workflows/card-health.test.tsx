import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lawyerFixture, pausedHealthFixture, workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { mockAdminBackend } from './admin-backend';

describe('the health of the cards on /admin/workflows', () => {
  it('shows the card unscheduled when the pause came after the list was read', async () => {
    // The list read at 09:00 has scheduling on; the pause landed at 10:00:01.
    const workflow = workflowFixture({
      id: crypto.randomUUID(),
      name: 'Relance en panne',
      cronSettings: { enabled: true, interval: 1, lastRun: null, nextRun: null },
      updatedAt: '2026-11-23T09:00:00.000Z',
    });
    const paused = pausedHealthFixture(workflow.id);
    mockAdminBackend({ lawyers: [lawyerFixture()], workflows: [workflow] }, (request) =>
      request.url.includes('/api/health/workflows')
        ? jsonResponse(200, { workflows: [paused], nextCursor: null })
        : undefined,
    );
    storeSessionOf('admin');

    renderApp('/admin/workflows');

    const card = (await screen.findByText(workflow.name)).closest('li') as HTMLElement;
    expect(await within(card).findByText('Suspendue')).toBeVisible();
    await waitFor(() => expect(within(card).getByText('Non planifié')).toBeVisible());
  });

  it('says an automation deleted since the list was read is gone, instead of loading on', async () => {
    const kept = workflowFixture({ id: crypto.randomUUID(), name: 'Relance conservée' });
    const deleted = workflowFixture({ id: crypto.randomUUID(), name: 'Relance supprimée ailleurs' });
    // The look-up answers for the automations that still exist: the deleted one is left out.
    mockAdminBackend({ lawyers: [lawyerFixture()], workflows: [kept, deleted] }, (request) =>
      request.url.includes('/api/health/workflows')
        ? jsonResponse(200, {
            workflows: [
              pausedHealthFixture(kept.id, { state: 'healthy', pausedAt: null, pauseReason: null }),
            ],
          })
        : undefined,
    );
    storeSessionOf('admin');

    renderApp('/admin/workflows');

    const card = (name: string) => screen.getByText(name).closest('li') as HTMLElement;
    await screen.findByText(deleted.name);
    expect(await within(card(deleted.name)).findByText('Automatisation supprimée')).toBeVisible();
    expect(
      within(card(deleted.name)).getByText('Rechargez la page pour mettre la liste à jour.'),
    ).toBeVisible();
    expect(within(card(deleted.name)).queryByText('Santé en cours de chargement')).toBeNull();
    expect(within(card(kept.name)).getByText('En bonne santé')).toBeVisible();
  });

  it('is read for the cards shown only, and for the next ones when the page changes', async () => {
    // 30 automations, newest first: the first page shows 12 of them.
    const workflows = Array.from({ length: 30 }, (_, index) =>
      workflowFixture({
        id: crypto.randomUUID(),
        name: `Automatisation ${String(index + 1).padStart(2, '0')}`,
        createdAt: `2026-11-${String(30 - index).padStart(2, '0')}T09:00:00.000Z`,
      }),
    );
    const network = mockAdminBackend({ lawyers: [lawyerFixture()], workflows }, (request) => {
      if (!request.url.includes('/api/health/workflows')) return undefined;
      const ids = new URL(request.url, 'http://localhost').searchParams.get('ids')?.split(',') ?? [];
      return jsonResponse(200, {
        workflows: ids.map((id) =>
          pausedHealthFixture(id, { state: 'failing', pausedAt: null, pauseReason: null }),
        ),
      });
    });
    storeSessionOf('admin');
    const healthReads = () =>
      network.requests
        .filter((request) => request.url.includes('/api/health/workflows'))
        .map((request) => new URL(request.url, 'http://localhost').searchParams.get('ids')?.split(',') ?? []);
    const shownIds = () =>
      (createWrapper(document.body).findCards()?.findItems() ?? []).map(
        (item) =>
          workflows.find((workflow) => workflow.name === item.findCardHeader()?.getElement().textContent)?.id,
      );

    renderApp('/admin/workflows');

    await screen.findByText('Automatisation 01');
    await waitFor(() => expect(screen.getAllByText('En échec')).toHaveLength(12));
    expect(healthReads()).toEqual([shownIds()]);
    // The next page is read when asked for (the pagination is open-ended until then).
    createWrapper(document.body).findPagination()?.findNextPageButton().click();
    await screen.findByText('Automatisation 13');
    await waitFor(() => expect(screen.getAllByText('En échec')).toHaveLength(12));
    expect(healthReads().at(-1)?.sort()).toEqual(shownIds().sort());
    expect(healthReads().flat()).toHaveLength(24);
  });
});
