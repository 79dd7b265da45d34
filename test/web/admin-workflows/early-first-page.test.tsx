import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { checkEarlyPages, READ_PAGE, settledEarlyPage } from '../../../web/src/api/list-pages';
import { workflowFixture } from '../back-office/fixtures';
import { jsonResponse } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { mockAdminBackend } from './admin-backend';
import { openAdminWorkflows } from './admin-page';

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

describe('/admin/workflows opened directly (issue 11: its first cards within a second)', () => {
  afterEach(() => {
    delete (window as { firstReads?: unknown }).firstReads;
  });

  it('asks for the first page of automations and folders before the code runs, and the screen shows that page without asking again', async () => {
    // Arrange
    const workflow = workflowFixture({ id: crypto.randomUUID(), name: 'Relance dossier Dupont' });
    const backend = mockAdminBackend({ workflows: [workflow] });
    storeSessionOf('admin');

    // Act: index.html's first-reads.js, then the application, with the same session.
    runFirstReads('/admin/workflows');
    expect(backend.sent('GET', '/api/workflows')).toHaveLength(1);
    expect(backend.sent('GET', '/api/folders')).toHaveLength(1);
    renderApp('/admin/workflows');

    // Assert
    await screen.findByText(workflow.name);
    expect(backend.sent('GET', '/api/workflows')).toHaveLength(1);
    expect(backend.sent('GET', '/api/folders')).toHaveLength(1);
  });

  it('draws a first page already in with the screen, without a placeholder first', async () => {
    // Arrange: asked for by first-reads.js and checked as the application starts (main.tsx).
    const workflow = workflowFixture({ id: crypto.randomUUID(), name: 'Relance dossier Lefebvre' });
    mockAdminBackend({ workflows: [workflow] });
    storeSessionOf('admin');
    runFirstReads('/admin/workflows');
    checkEarlyPages();
    await vi.waitFor(() => expect(settledEarlyPage(READ_PAGE.workflows)).toBeDefined());

    // Act
    renderApp('/admin/workflows');

    // Assert: in the first render, not after one of skeletons.
    expect(screen.getByText(workflow.name)).toBeDefined();
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

    // Assert: read again, with the session now stored.
    await screen.findByText(workflow.name);
    expect(backend.sent('GET', '/api/workflows')).toHaveLength(2);
  });
});

describe('/admin/workflows with more automations than a page', () => {
  it('asks for the next page only once the first page is on the screen', async () => {
    // Arrange: two pages; the second records what the screen showed when it was asked for.
    const first = workflowFixture({ id: crypto.randomUUID(), name: 'Relance dossier Bernard' });
    const second = workflowFixture({ id: crypto.randomUUID(), name: 'Relance dossier Petit' });
    let firstShownWhenNextAsked: boolean | undefined;
    mockAdminBackend({}, (request) => {
      const url = new URL(request.url, 'http://localhost');
      if (request.method !== 'GET' || url.pathname !== '/api/workflows') return undefined;
      if (!url.searchParams.has('cursor')) {
        return jsonResponse(200, { workflows: [first], nextCursor: 'page-2' });
      }
      firstShownWhenNextAsked = document.body.textContent?.includes(first.name);
      return jsonResponse(200, { workflows: [second], nextCursor: null });
    });

    // Act
    openAdminWorkflows();

    // Assert
    await screen.findByText(second.name);
    expect(firstShownWhenNextAsked).toBe(true);
  });
});
