import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { MESSAGES } from '../../../shared/messages';
import { jsonResponse, mockNetwork, type SentRequest } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { answerWith, billingBackend } from './billing-support';

// The form is a lazily loaded chunk of /login; test/web/setup.ts fetches it ahead (preloadRoutes),
// as it does every page: unfetched, the click that opens it suspends inside user-event's act and
// React never retries the render in jsdom, which is why this test first failed.

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openPortalLinkForm(app: ReturnType<typeof renderApp>) {
  await app.user.click(await screen.findByRole('button', { name: 'Gérer mon abonnement' }));
  return screen.findByLabelText('Adresse e-mail de facturation');
}

const portalLinkRequests = (requests: readonly SentRequest[]) =>
  requests.filter((request) => request.url.endsWith('/api/request-portal-link'));

describe("'Gérer mon abonnement' on the login card (a firm that cannot sign in)", () => {
  it('names a malformed e-mail without calling the server, and goes back to the sign-in form', async () => {
    // Arrange
    const network = mockNetwork();
    const app = renderApp('/login');

    // Act
    await app.user.type(await openPortalLinkForm(app), 'pas-une-adresse');
    await app.user.click(screen.getByRole('button', { name: 'Recevoir le lien' }));

    // Assert
    expect(await screen.findByText(MESSAGES.purchase.emailInvalid)).toBeVisible();
    expect(portalLinkRequests(network.requests)).toHaveLength(0);
    await app.user.click(screen.getByRole('button', { name: 'Retour à la connexion' }));
    expect(await screen.findByLabelText('Clé de licence')).toBeVisible();
  });

  it("sends the trimmed billing e-mail and shows the server's neutral reply", async () => {
    // Arrange
    const network = mockNetwork(
      billingBackend({
        '/api/request-portal-link': answerWith(200, { message: MESSAGES.subscription.portalLinkSent }),
      }),
    );
    const app = renderApp('/login');

    // Act
    await app.user.type(await openPortalLinkForm(app), '  compta@cabinet-durand.fr ');
    await app.user.click(screen.getByRole('button', { name: 'Recevoir le lien' }));

    // Assert
    expect(await screen.findByText(MESSAGES.subscription.portalLinkSent)).toBeVisible();
    const sent = portalLinkRequests(network.requests);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('POST');
    expect(sent[0]?.body).toEqual({ email: 'compta@cabinet-durand.fr' });
  });

  it("shows the server's throttling message as the form's error", async () => {
    // Arrange
    mockNetwork(
      billingBackend({
        '/api/request-portal-link': () => jsonResponse(429, { error: MESSAGES.login.tooManyAttempts }),
      }),
    );
    const app = renderApp('/login');

    // Act
    await app.user.type(await openPortalLinkForm(app), 'compta@cabinet-durand.fr');
    await app.user.click(screen.getByRole('button', { name: 'Recevoir le lien' }));

    // Assert
    expect(await screen.findByText(MESSAGES.login.tooManyAttempts)).toBeVisible();
    expect(screen.queryByText(MESSAGES.subscription.portalLinkSent)).toBeNull();
  });
});
