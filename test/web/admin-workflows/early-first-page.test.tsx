import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { preloadSignedInPage } from '../../../web/src/app-routes';
import { workflowFixture } from '../back-office/fixtures';
import { storeSessionOf } from '../support/sessions';
import { mockAdminBackend } from './admin-backend';
import { openAdminWorkflows } from './admin-page';

describe('/admin/workflows opened directly (issue 11: its first cards within a second)', () => {
  it('reads the first page of automations at start, alongside the code, and the screen shows that page without asking again', async () => {
    const workflow = workflowFixture({ id: crypto.randomUUID(), name: 'Relance dossier Dupont' });
    const backend = mockAdminBackend({ workflows: [workflow] });
    storeSessionOf('admin');

    // Act: what main.tsx does before the first render.
    preloadSignedInPage('/admin/workflows', 'admin');
    expect(backend.sent('GET', '/api/workflows')).toHaveLength(1);
    expect(backend.sent('GET', '/api/folders')).toHaveLength(1);
    openAdminWorkflows();

    // Assert
    await screen.findByText(workflow.name);
    expect(backend.sent('GET', '/api/workflows')).toHaveLength(1);
    expect(backend.sent('GET', '/api/folders')).toHaveLength(1);
  });

  it("reads nothing ahead for another side's page: the visitor would only be sent home", () => {
    const backend = mockAdminBackend({});

    preloadSignedInPage('/admin/workflows', 'lawyer');
    preloadSignedInPage('/lawyer/workflows/', 'admin');

    expect(backend.requests).toEqual([]);
  });
});
