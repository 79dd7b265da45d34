import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockNetwork } from './support/fetch-mock';
import { renderApp } from './support/render-app';
import { storeSessionOf } from './support/sessions';

describe('route guards', () => {
  it.each(['/admin/workflows', '/lawyer/welcome', '/notary/cron', '/une/page/inconnue'])(
    'sends a visitor without session from %s to /login',
    async (path) => {
      // Arrange
      mockNetwork();

      // Act
      const app = renderApp(path);

      // Assert
      await waitFor(() => expect(app.pathname()).toBe('/login'));
      expect(await screen.findByRole('heading', { level: 1, name: 'Connexion' })).toBeVisible();
    },
  );

  it.each([
    ['lawyer', '/admin/settings', '/lawyer/welcome'],
    ['admin', '/lawyer/workflows', '/admin/workflows'],
    ['admin', '/notary/welcome', '/admin/workflows'],
    ['notary', '/admin/lawyers', '/notary/welcome'],
  ] as const)('sends a %s from %s to %s', async (role, path, expected) => {
    // Arrange
    mockNetwork();
    storeSessionOf(role);

    // Act
    const app = renderApp(path);

    // Assert
    await waitFor(() => expect(app.pathname()).toBe(expected));
  });

  it.each([
    ['admin', '/admin/workflows'],
    ['lawyer', '/lawyer/welcome'],
    ['notary', '/notary/welcome'],
  ] as const)('sends a signed-in %s from the landing page to %s', async (role, home) => {
    // Arrange
    mockNetwork();
    storeSessionOf(role);

    // Act
    const app = renderApp('/');

    // Assert
    await waitFor(() => expect(app.pathname()).toBe(home));
  });

  it('shows the landing page to a visitor', async () => {
    // Arrange
    mockNetwork();

    // Act
    renderApp('/');

    // Assert
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Bienvenue sur votre Assistant IA Juridique' }),
    ).toBeVisible();
  });

  it.each([
    ['lawyer', '/lawyer/settings', "Gestion de l'abonnement"],
    ['lawyer', '/lawyer/google', 'Configuration compte'],
    ['notary', '/notary/workflows', 'Mes Automatisations'],
    ['admin', '/admin/workflows-new', 'Gestion des Automatisations'],
  ] as const)("lets a %s open %s, titled '%s'", async (role, path, title) => {
    // Arrange
    mockNetwork();
    storeSessionOf(role);

    // Act
    const app = renderApp(path);

    // Assert
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeVisible();
    expect(app.pathname()).toBe(path);
  });
});

describe('privacy aliases', () => {
  it.each(['/privacy', '/admin/privacy', '/lawyer/privacy', '/notary/privacy'])(
    'shows the privacy policy at %s without a session',
    async (path) => {
      // Arrange
      mockNetwork();

      // Act
      const app = renderApp(path);

      // Assert
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Politique de Confidentialité' }),
      ).toBeVisible();
      expect(screen.getByText('Dernière mise à jour : 21/05/2025')).toBeVisible();
      expect(app.pathname()).toBe(path);
    },
  );

  it('shows the privacy policy inside the signed-in layout at /lawyer/privacy', async () => {
    // Arrange
    mockNetwork();
    storeSessionOf('lawyer');

    // Act
    const app = renderApp('/lawyer/privacy');

    // Assert
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Politique de Confidentialité' }),
    ).toBeVisible();
    expect(app.wrapper.findSideNavigation()?.findActiveLink()?.getElement().getAttribute('href')).toBe(
      '/lawyer/privacy',
    );
  });
});
