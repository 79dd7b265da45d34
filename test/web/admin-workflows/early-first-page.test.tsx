import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  EARLY_READ_PATHS,
  FIRST_ADMIN_WORKFLOWS_QUERY,
  takeEarlyReads,
} from '../../../web/src/api/early-reads';
import { KEYS } from '../../../web/src/api/keys';
import { queryClient } from '../../../web/src/api/query-client';
import { workflowFixture } from '../back-office/fixtures';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { mockAdminBackend } from './admin-backend';
import { cardTitles, openAdminWorkflows } from './admin-page';

/** web/public/first-reads.js, the classic script index.html runs before the application's code. */
const FIRST_READS = readFileSync(resolve('web/public/first-reads.js'), 'utf8');

/** Runs first-reads.js as index.html does at `path`, with the runtime settings written in. */
function runFirstReads(path: string) {
  const settings = document.createElement('script');
  settings.id = 'runtime-config';
  settings.type = 'application/json';
  settings.textContent = '{"apiBaseUrl":""}';
  document.head.append(settings);
  window.history.replaceState(null, '', path);
  try {
    new Function(FIRST_READS)();
  } finally {
    settings.remove();
    window.history.replaceState(null, '', '/');
  }
}

describe('/admin/workflows opened directly (its first cards within a second)', () => {
  afterEach(() => {
    delete (window as { firstReads?: unknown }).firstReads;
  });

  it('asks for the first page of automations and the counts before the code runs, and the screen shows them without asking again', async () => {
    // Arrange
    const workflow = workflowFixture({ id: crypto.randomUUID(), name: 'Relance dossier Dupont' });
    const backend = mockAdminBackend({ workflows: [workflow] });
    storeSessionOf('admin');

    // Act: index.html's first-reads.js, then the application (main.tsx takes the replies), with the same session.
    runFirstReads('/admin/workflows');
    expect(backend.requests.map((request) => request.url)).toEqual(Object.values(EARLY_READ_PATHS));
    takeEarlyReads();
    renderApp('/admin/workflows');

    // Assert
    await screen.findByText(workflow.name);
    expect(backend.sent('GET', '/api/workflows')).toHaveLength(1);
    expect(backend.sent('GET', '/api/counts')).toHaveLength(1);
  });

  it('draws a first page already in with the screen, without a placeholder first', async () => {
    // Arrange: asked for by first-reads.js and taken into the query cache as the application starts.
    const workflow = workflowFixture({ id: crypto.randomUUID(), name: 'Relance dossier Lefebvre' });
    mockAdminBackend({ workflows: [workflow] });
    storeSessionOf('admin');
    runFirstReads('/admin/workflows');
    takeEarlyReads();
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(KEYS.workflows(FIRST_ADMIN_WORKFLOWS_QUERY))).toMatchObject({
        pages: [{ workflows: [expect.objectContaining({ name: workflow.name })] }],
      }),
    );

    // Act
    renderApp('/admin/workflows');

    // Assert: in the first render, not after one of skeletons.
    expect(screen.getByText(workflow.name)).toBeVisible();
    expect(screen.queryByText('Chargement des automatisations')).toBeNull();
  });

  it("asks for nothing ahead on another side's page (the visitor would only be sent home) or without a session", () => {
    const backend = mockAdminBackend({});

    storeSessionOf('lawyer');
    runFirstReads('/admin/workflows');
    storeSessionOf('admin');
    runFirstReads('/lawyer/workflows/');
    localStorage.clear();
    runFirstReads('/admin/workflows');

    expect(backend.requests).toEqual([]);
  });

  it('does not hand a page asked for with a session that has since changed to the new one', async () => {
    // Arrange: asked for with a session since ended; another one is stored when the page opens.
    const workflow = workflowFixture({ id: crypto.randomUUID(), name: 'Relance dossier Martin' });
    const backend = mockAdminBackend({ workflows: [workflow] });
    storeSessionOf('admin', { token: 'jeton-de-la-session-precedente' });
    runFirstReads('/admin/workflows');

    // Act
    openAdminWorkflows();
    takeEarlyReads();

    // Assert: read again, with the session now stored.
    await screen.findByText(workflow.name);
    expect(backend.sent('GET', '/api/workflows')).toHaveLength(2);
  });
});

describe('/admin/workflows with more automations than a page', () => {
  it('reads the next page only when the admin asks for it, and going back reads nothing', async () => {
    // Arrange: 13 automations, one more than a page.
    const workflows = Array.from({ length: 13 }, (_, index) =>
      workflowFixture({
        id: crypto.randomUUID(),
        name: `Relance dossier ${String(index + 1).padStart(2, '0')}`,
      }),
    );
    const backend = mockAdminBackend({ workflows });
    openAdminWorkflows();
    await screen.findByText('Relance dossier 01');
    // The cards shown ask for their health once drawn: by then, no other page was asked for.
    await waitFor(() => expect(backend.sent('GET', '/api/health/workflows')).toHaveLength(1));
    expect(backend.sent('GET', '/api/workflows')).toHaveLength(1);
    expect(cardTitles()).toHaveLength(12);
    const pagination = () => createWrapper(document.body).findCards()!.findPagination()!;

    // Act: the next page, then back to the first.
    pagination().findNextPageButton().click();
    await waitFor(() => expect(cardTitles()).toEqual(['Relance dossier 13']));
    pagination().findPreviousPageButton().click();

    // Assert
    await waitFor(() => expect(cardTitles()).toHaveLength(12));
    const reads = backend
      .sent('GET', '/api/workflows')
      .map((request) => new URL(request.url, 'http://localhost'));
    expect(reads.map((url) => url.searchParams.get('cursor'))).toEqual([null, '12']);
  });
});
