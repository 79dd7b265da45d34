import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { callApi } from '../../web/src/api/api-client';
import { SESSION_STORAGE_KEY } from '../../web/src/api/session-storage';
import { jsonResponse, mockNetwork } from './support/fetch-mock';
import { renderApp } from './support/render-app';
import { storedSession, storeSessionOf } from './support/sessions';

describe('session restored at start', () => {
  it.each([
    ['text that is not JSON', '{not json'],
    ['JSON that is not a session user', JSON.stringify({ licenseKey: 'NOTARY-X', role: 'superuser' })],
  ])('discards %s and asks to sign in', async (_case, raw) => {
    // Arrange
    mockNetwork();
    localStorage.setItem(SESSION_STORAGE_KEY, raw);

    // Act
    const app = renderApp('/admin/workflows');

    // Assert
    await waitFor(() => expect(app.pathname()).toBe('/login'));
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('discards an expired session', async () => {
    // Arrange
    mockNetwork();
    storeSessionOf('admin', { expiresAt: new Date(Date.now() - 1000).toISOString() });

    // Act
    const app = renderApp('/admin/workflows');

    // Assert
    await waitFor(() => expect(app.pathname()).toBe('/login'));
    expect(storedSession()).toBeNull();
  });

  it('restores a valid session: the signed-in page opens', async () => {
    // Arrange
    mockNetwork();
    storeSessionOf('admin');

    // Act
    const app = renderApp('/admin/workflows');

    // Assert
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Gestion des Automatisations' }),
    ).toBeVisible();
    expect(app.pathname()).toBe('/admin/workflows');
  });
});

describe('logout', () => {
  it("ends the session on the server, forgets it, says 'Déconnecté avec succès' and goes to /login", async () => {
    // Arrange
    const network = mockNetwork((request) =>
      request.url.endsWith('/api/sign-out') ? jsonResponse(200, { success: true }) : jsonResponse(404, {}),
    );
    const session = storeSessionOf('lawyer');
    const app = renderApp('/lawyer/welcome');
    await screen.findByRole('button', { name: 'Déconnexion' });

    // Act
    await app.user.click(screen.getByRole('button', { name: 'Déconnexion' }));

    // Assert
    await waitFor(() => expect(app.pathname()).toBe('/login'));
    expect(storedSession()).toBeNull();
    expect(network.to('/api/sign-out')).toEqual([
      expect.objectContaining({
        method: 'POST',
        headers: expect.objectContaining({ authorization: `Bearer ${session.token}` }),
      }),
    ]);
    expect(await screen.findByText('Déconnecté avec succès')).toBeVisible();
  });

  it('signs out here even when the server cannot be reached', async () => {
    // Arrange
    mockNetwork(() => Promise.reject(new TypeError('Failed to fetch')));
    storeSessionOf('admin');
    const app = renderApp('/admin/workflows');
    await screen.findByRole('button', { name: 'Déconnexion' });

    // Act
    await app.user.click(screen.getByRole('button', { name: 'Déconnexion' }));

    // Assert
    await waitFor(() => expect(app.pathname()).toBe('/login'));
    expect(storedSession()).toBeNull();
  });
});

describe('a 401 reply to a protected call', () => {
  it('clears the session and goes to /login with the reason', async () => {
    // Arrange: the page's own first call is refused.
    const network = mockNetwork(() => jsonResponse(401, { error: 'Licence inactive. Accès suspendu.' }));
    const session = storeSessionOf('admin');

    // Act
    const app = renderApp('/admin/workflows');

    // Assert
    await waitFor(() => expect(app.pathname()).toBe('/login'));
    expect(network.to('/api/workflows')[0]?.headers.authorization).toBe(`Bearer ${session.token}`);
    expect(storedSession()).toBeNull();
    expect(await screen.findByText('Licence inactive. Accès suspendu.')).toBeVisible();
  });

  it('keeps the session on any other error', async () => {
    // Arrange
    mockNetwork(() => jsonResponse(403, { error: 'Accès refusé' }));
    storeSessionOf('admin');
    const app = renderApp('/admin/workflows');
    await screen.findByRole('heading', { level: 1, name: 'Gestion des Automatisations' });

    // Act
    await act(async () => {
      await callApi('listWorkflows').catch(() => undefined);
    });

    // Assert
    expect(app.pathname()).toBe('/admin/workflows');
    expect(storedSession()).not.toBeNull();
  });
});
