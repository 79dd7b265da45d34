import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockNetwork } from './support/fetch-mock';
import { renderApp } from './support/render-app';

async function openPurchaseForm(app: ReturnType<typeof renderApp>) {
  await app.user.click(screen.getByRole('button', { name: 'Obtenir votre licence' }));
  return screen.findByRole('heading', { level: 1, name: 'Obtenir votre licence' });
}

describe('purchase form of the login card', () => {
  it("switches the card to the purchase form and back with 'Retour à la connexion'", async () => {
    // Arrange
    mockNetwork();
    const app = renderApp('/login');

    // Act
    await openPurchaseForm(app);
    await app.user.click(screen.getByRole('button', { name: 'Retour à la connexion' }));

    // Assert
    expect(await screen.findByRole('heading', { level: 1, name: 'Connexion' })).toBeTruthy();
    expect(screen.getByLabelText('Clé de licence')).toBeTruthy();
  });

  it("refuses an invalid e-mail with 'Adresse email valide requise'", async () => {
    // Arrange
    const network = mockNetwork();
    const app = renderApp('/login');
    await openPurchaseForm(app);

    // Act
    await app.user.type(screen.getByLabelText('Adresse email'), 'pas-une-adresse');
    await app.user.click(screen.getByRole('button', { name: 'Procéder au paiement' }));

    // Assert
    const emailField = app.wrapper.findFormField();
    expect(emailField?.findError()?.getElement().textContent).toBe('Adresse email valide requise');
    expect(network.requests.filter((request) => request.url.includes('/api/'))).toHaveLength(0);
  });

  it("says 'Erreur lors de la création du paiement' while the payment service is not available", async () => {
    // Arrange
    mockNetwork();
    const app = renderApp('/login');
    await openPurchaseForm(app);

    // Act
    await app.user.type(screen.getByLabelText('Adresse email'), 'maitre.durand@cabinet.fr');
    await app.user.type(screen.getByLabelText(/Code promo/), 'BIENVENUE');
    await app.user.click(screen.getByRole('button', { name: 'Procéder au paiement' }));

    // Assert
    await waitFor(() => {
      const toasts = app.wrapper.findFlashbar()?.findItemsByType('error') ?? [];
      expect(toasts.map((toast) => toast.findContent()?.getElement().textContent)).toEqual([
        'Erreur lors de la création du paiement',
      ]);
    });
    expect(app.wrapper.findFormField()?.findError()).toBeNull();
  });
});
