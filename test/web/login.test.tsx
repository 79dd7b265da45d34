import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Role } from '../../shared';
import { emptyBackend, jsonResponse, mockNetwork } from './support/fetch-mock';
import { renderApp } from './support/render-app';
import { storedSession, storeSessionOf } from './support/sessions';

const VALID_KEY = 'NOTARY-ABCD1234';

function verifyReply(role: Role, overrides: Record<string, unknown> = {}) {
  return {
    valid: true,
    licenseType: role,
    userEmail: `${role}@cabinet.example`,
    displayName: role === 'admin' ? 'Administrateur' : 'Camille Martin',
    token: `token-of-${role}`,
    expiresAt: new Date(Date.now() + 12 * 60 * 60 * 1000).toISOString(),
    ...overrides,
  };
}

async function submitKey(app: ReturnType<typeof renderApp>, key: string) {
  await app.user.type(screen.getByLabelText('Clé de licence'), key);
  await app.user.click(screen.getByRole('button', { name: 'Se connecter' }));
}

describe('login page', () => {
  it("refuses a key shorter than 5 characters with 'La clé de licence est requise' and sends nothing", async () => {
    // Arrange
    const network = mockNetwork();
    const app = renderApp('/login');

    // Act
    await submitKey(app, 'abcd');

    // Assert
    const field = app.wrapper.findFormField();
    expect(field?.findError()?.getElement().textContent).toBe('La clé de licence est requise');
    expect(network.to('/api/verify-license')).toHaveLength(0);
  });

  it("reads 'Connexion en cours...' and is busy while the key is being checked", async () => {
    // Arrange
    let answer: (response: Response) => void = () => {};
    mockNetwork((request) =>
      request.url.endsWith('/api/verify-license')
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : jsonResponse(404, {}),
    );
    const app = renderApp('/login');

    // Act
    await submitKey(app, VALID_KEY);

    // Assert
    const button = await screen.findByRole('button', { name: /Connexion en cours\.\.\./ });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    answer(jsonResponse(200, { valid: false }));
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeVisible();
  });

  it.each([
    ['admin', '/admin/workflows', 'Connecté en tant que Administrateur'],
    ['lawyer', '/lawyer/welcome', 'Connecté en tant que Camille Martin'],
    ['notary', '/notary/welcome', 'Connecté en tant que Camille Martin'],
  ] as const)(
    'signs a %s in: stores the session, greets him and goes to %s',
    async (role, home, greeting) => {
      // Arrange
      const network = mockNetwork((request) =>
        request.url.endsWith('/api/verify-license')
          ? jsonResponse(200, verifyReply(role))
          : emptyBackend(request),
      );
      const app = renderApp('/login');

      // Act
      await submitKey(app, `  ${VALID_KEY} `);

      // Assert: the greeting first, while its toast is up (it goes after 5 s of a busy machine's time)
      expect(await screen.findByText(greeting)).toBeVisible();
      await waitFor(() => expect(app.pathname()).toBe(home));
      expect(network.to('/api/verify-license')[0]).toMatchObject({
        method: 'POST',
        body: { licenseKey: VALID_KEY },
      });
      expect(storedSession()).toEqual({
        licenseKey: VALID_KEY,
        role,
        name: verifyReply(role).displayName,
        email: `${role}@cabinet.example`,
        token: `token-of-${role}`,
        expiresAt: expect.any(String),
      });
    },
  );

  it("names a lawyer 'Avocat' when the server gives no display name", async () => {
    // Arrange
    mockNetwork(() => jsonResponse(200, verifyReply('lawyer', { displayName: undefined })));
    const app = renderApp('/login');

    // Act
    await submitKey(app, VALID_KEY);

    // Assert
    await waitFor(() => expect(app.pathname()).toBe('/lawyer/welcome'));
    expect(storedSession()).toMatchObject({ name: 'Avocat' });
    expect(await screen.findByText('Connecté en tant que Avocat')).toBeVisible();
  });

  it("shows 'Clé de licence invalide' inline and as a toast when the key is not valid", async () => {
    // Arrange
    mockNetwork(() => jsonResponse(200, { valid: false }));
    const app = renderApp('/login');

    // Act
    await submitKey(app, VALID_KEY);

    // Assert
    await waitFor(() =>
      expect(app.wrapper.findForm()?.findError()?.getElement().textContent).toBe('Clé de licence invalide'),
    );
    const toasts = app.wrapper.findFlashbar()?.findItemsByType('error') ?? [];
    expect(toasts.map((toast) => toast.findContent()?.getElement().textContent)).toEqual([
      'Clé de licence invalide',
    ]);
    expect(app.pathname()).toBe('/login');
    expect(storedSession()).toBeNull();
  });

  it("shows the server's error text of a refused key", async () => {
    // Arrange
    mockNetwork(() => jsonResponse(200, { valid: false, error: 'Licence inactive. Accès suspendu.' }));
    const app = renderApp('/login');

    // Act
    await submitKey(app, VALID_KEY);

    // Assert
    await waitFor(() =>
      expect(app.wrapper.findForm()?.findError()?.getElement().textContent).toBe(
        'Licence inactive. Accès suspendu.',
      ),
    );
  });

  it('shows the throttling message of a 429 reply', async () => {
    // Arrange
    const message = 'Trop de tentatives. Veuillez réessayer dans quelques minutes.';
    mockNetwork(() => jsonResponse(429, { valid: false, error: message }));
    const app = renderApp('/login');

    // Act
    await submitKey(app, VALID_KEY);

    // Assert
    await waitFor(() => expect(app.wrapper.findForm()?.findError()?.getElement().textContent).toBe(message));
  });

  it.each([
    ['the network fails', () => Promise.reject(new TypeError('Failed to fetch'))],
    [
      'the server fails',
      () => jsonResponse(500, { error: 'Erreur interne du serveur. Veuillez réessayer.' }),
    ],
  ])("shows 'Erreur lors de la vérification de la clé de licence' when %s", async (_case, respond) => {
    // Arrange
    mockNetwork(respond);
    const app = renderApp('/login');

    // Act
    await submitKey(app, VALID_KEY);

    // Assert
    await waitFor(() =>
      expect(app.wrapper.findForm()?.findError()?.getElement().textContent).toBe(
        'Erreur lors de la vérification de la clé de licence',
      ),
    );
  });

  it("shows 'Erreur lors de la connexion' when a valid reply lacks the session", async () => {
    // Arrange
    mockNetwork(() => jsonResponse(200, { valid: true, licenseType: 'lawyer' }));
    const app = renderApp('/login');

    // Act
    await submitKey(app, VALID_KEY);

    // Assert
    await waitFor(() =>
      expect(app.wrapper.findForm()?.findError()?.getElement().textContent).toBe(
        'Erreur lors de la connexion',
      ),
    );
    expect(storedSession()).toBeNull();
  });

  it('sends a signed-in user on to his home', async () => {
    // Arrange
    mockNetwork();
    storeSessionOf('lawyer');

    // Act
    const app = renderApp('/login');

    // Assert
    await waitFor(() => expect(app.pathname()).toBe('/lawyer/welcome'));
  });

  it("links 'Propulsé par' to the provider and 'Découvrir' to /discover", async () => {
    // Arrange
    mockNetwork();
    const app = renderApp('/login');

    // Act
    await app.user.click(screen.getByRole('link', { name: 'Découvrir' }));

    // Assert
    expect(app.pathname()).toBe('/discover');
  });
});
