import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { mockNetwork } from './support/fetch-mock';
import { renderApp } from './support/render-app';
import { storeSessionOf } from './support/sessions';

describe('not-found page', () => {
  it.each([
    ['admin', '/admin/workflows'],
    ['lawyer', '/lawyer/welcome'],
    ['notary', '/login'],
  ] as const)('leads a %s back to %s', async (role, back) => {
    // Arrange
    mockNetwork();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storeSessionOf(role);

    // Act
    renderApp('/cette-page-n-existe-pas');

    // Assert
    expect(await screen.findByText('404')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Page non trouvée' })).toBeVisible();
    expect(screen.getByRole('link', { name: "Retour à l'accueil" }).getAttribute('href')).toBe(back);
  });

  it('logs the unknown route to the console', async () => {
    // Arrange
    mockNetwork();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    storeSessionOf('admin');

    // Act
    renderApp('/admin/inconnue');

    // Assert
    await screen.findByText('Page non trouvée');
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('/admin/inconnue'));
  });

  it('follows the return link inside the app', async () => {
    // Arrange
    mockNetwork();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storeSessionOf('lawyer');
    const app = renderApp('/lawyer/inconnue');

    // Act
    await app.user.click(await screen.findByRole('link', { name: "Retour à l'accueil" }));

    // Assert
    expect(app.pathname()).toBe('/lawyer/welcome');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bienvenue' })).toBeVisible();
  });
});
