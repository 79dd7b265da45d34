import { screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { MESSAGES } from '../../../shared/messages';
import { mockNetwork } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';

// The form's chunk compiled once up front, so that its first transform on a busy machine does
// not eat the waits of the test that opens it.
beforeAll(async () => {
  await import('../../../web/src/pages/login/portal-link-form');
}, 120_000);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("'Gérer mon abonnement' on the login card (a firm that cannot sign in)", () => {
  it('names a malformed e-mail without calling the server, and goes back to the sign-in form', async () => {
    const network = mockNetwork();
    const app = renderApp('/login');

    await app.user.click(await screen.findByRole('button', { name: 'Gérer mon abonnement' }));
    const field = await screen.findByLabelText('Adresse e-mail de facturation', undefined, {
      timeout: 10_000,
    });
    await app.user.type(field, 'pas-une-adresse');
    await app.user.click(screen.getByRole('button', { name: 'Recevoir le lien' }));

    expect(await screen.findByText(MESSAGES.purchase.emailInvalid)).toBeTruthy();
    expect(network.requests.some((request) => request.url.endsWith('/api/request-portal-link'))).toBe(false);
    await app.user.click(screen.getByRole('button', { name: 'Retour à la connexion' }));
    expect(await screen.findByLabelText('Clé de licence')).toBeTruthy();
  });
});
