import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lawyerFixture, pausedHealthFixture, workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { mockAdminBackend } from './admin-backend';

describe('an automatic pause seen on /admin/workflows', () => {
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
    expect(await within(card).findByText('Suspendue')).toBeTruthy();
    await waitFor(() => expect(within(card).getByText('Non planifié')).toBeTruthy());
  });
});
