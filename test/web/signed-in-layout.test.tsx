import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { resizeViewport } from './support/browser-stubs';
import { mockNetwork } from './support/fetch-mock';
import { renderApp } from './support/render-app';
import { storeSessionOf } from './support/sessions';

function sidebarCookie(): string | undefined {
  return document.cookie
    .split(';')
    .map((entry) => entry.trim())
    .find((entry) => entry.startsWith('sidebar_state='));
}

/** The texts of the sidebar's menu links, in order. */
function menuLinks(app: ReturnType<typeof renderApp>): string[] {
  const navigation = app.wrapper.findSideNavigation()?.getElement();
  return Array.from(navigation?.querySelectorAll('ul a') ?? []).map((link) => link.textContent ?? '');
}

function navigationIsOpen(app: ReturnType<typeof renderApp>): boolean {
  return app.wrapper.findAppLayout()?.findOpenNavigationPanel() != null;
}

describe('signed-in layout', () => {
  it("shows the role's menu and follows it inside the app", async () => {
    // Arrange
    mockNetwork();
    storeSessionOf('admin');
    const app = renderApp('/admin/workflows');
    const navigation = app.wrapper.findSideNavigation();

    // Act
    const links = menuLinks(app);
    await app.user.click(navigation?.findLinkByHref('/admin/lawyers')?.getElement() as HTMLElement);

    // Assert
    expect(links).toEqual(['Automatisations', 'Avocats', 'Code promo test', 'Paramètres', 'Confidentialité']);
    expect(app.pathname()).toBe('/admin/lawyers');
    expect(await screen.findByRole('heading', { level: 1, name: 'Consultation des Avocats' })).toBeVisible();
  });

  it.each([
    [
      'lawyer',
      '/lawyer/welcome',
      [
        'Bienvenue',
        'Automatisations',
        'Configuration compte',
        'Écosystème Google',
        'Paramètres',
        'Confidentialité',
      ],
    ],
    [
      'notary',
      '/notary/welcome',
      [
        'Bienvenue',
        'Paramètres',
        'Abonnement',
        'Automatisations',
        'Écosystème Google',
        'Planification',
        'Confidentialité',
      ],
    ],
  ] as const)('shows the %s menu', (role, path, expected) => {
    // Arrange
    mockNetwork();
    storeSessionOf(role);

    // Act
    const app = renderApp(path);

    // Assert
    expect(menuLinks(app)).toEqual(expected);
  });

  it('toggles the sidebar with Ctrl+B and remembers it in the sidebar_state cookie', async () => {
    // Arrange
    mockNetwork();
    storeSessionOf('admin');
    const app = renderApp('/admin/workflows');
    expect(navigationIsOpen(app)).toBe(true);

    // Act + Assert
    await app.user.keyboard('{Control>}b{/Control}');
    expect(navigationIsOpen(app)).toBe(false);
    expect(sidebarCookie()).toBe('sidebar_state=false');

    await app.user.keyboard('{Meta>}b{/Meta}');
    expect(navigationIsOpen(app)).toBe(true);
    expect(sidebarCookie()).toBe('sidebar_state=true');
  });

  it("toggles the sidebar from the top bar's button, its one control, and remembers it", async () => {
    // Arrange
    mockNetwork();
    storeSessionOf('admin');
    const app = renderApp('/admin/workflows');
    const header = within(document.querySelector('header') as HTMLElement);

    // Act
    await app.user.click(header.getByRole('button', { name: 'Masquer le menu' }));

    // Assert
    expect(navigationIsOpen(app)).toBe(false);
    expect(sidebarCookie()).toBe('sidebar_state=false');
    expect(header.getByRole('button', { name: 'Afficher le menu' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
    // No toolbar row with a second trigger under the top bar.
    expect(app.wrapper.findAppLayout()?.findToolbar()).toBeNull();
  });

  it('leaves Ctrl/Cmd+B to a text field being typed in', async () => {
    // Arrange
    mockNetwork();
    storeSessionOf('admin');
    const app = renderApp('/admin/workflows');
    const search = await screen.findByPlaceholderText('Rechercher une automatisation');
    await app.user.click(search);

    // Act
    await app.user.keyboard('{Control>}b{/Control}');
    await app.user.keyboard('{Meta>}b{/Meta}');

    // Assert
    expect(navigationIsOpen(app)).toBe(true);
    expect(sidebarCookie()).toBeUndefined();
  });

  it('opens with the remembered state', () => {
    // Arrange
    mockNetwork();
    storeSessionOf('admin');
    // biome-ignore lint/suspicious/noDocumentCookie: a cookie left by a previous visit; jsdom has no Cookie Store API.
    document.cookie = 'sidebar_state=false; Path=/';

    // Act
    const app = renderApp('/admin/workflows');

    // Assert
    expect(navigationIsOpen(app)).toBe(false);
  });

  it('collapses the sidebar under 768 px without forgetting the desktop choice', async () => {
    // Arrange
    mockNetwork();
    storeSessionOf('admin');
    const app = renderApp('/admin/workflows');
    expect(navigationIsOpen(app)).toBe(true);

    // Act
    act(() => resizeViewport(700));

    // Assert
    await waitFor(() => expect(navigationIsOpen(app)).toBe(false));
    expect(sidebarCookie()).toBeUndefined();
  });

  /** The top bar's controls in order: toggle, logo link, role label, sign-out. */
  function topBarControls(): string[] {
    const header = document.querySelector('header') as HTMLElement;
    return Array.from(header.querySelectorAll('a, button')).map(
      (element) => element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '',
    );
  }

  it("shows the toggle, the centred logo, the role label and 'Déconnexion' on a wide screen", () => {
    // Arrange
    mockNetwork();
    storeSessionOf('lawyer', { name: 'Camille Martin' });

    // Act
    renderApp('/lawyer/welcome');

    // Assert
    expect(topBarControls()).toEqual([
      'Masquer le menu',
      'Assistant IA Juridique',
      'Camille Martin',
      'Déconnexion',
    ]);
  });

  it('hides the role label under 768 px', () => {
    // Arrange
    mockNetwork();
    resizeViewport(600);
    storeSessionOf('admin');

    // Act
    renderApp('/admin/workflows');

    // Assert
    expect(topBarControls()).toEqual(['Afficher le menu', 'Assistant IA Juridique', 'Déconnexion']);
  });
});
