import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { jsonResponse, mockNetwork } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { answerWith, billingBackend, watchPageChanges } from './billing-support';

const CHECKOUT_URL = 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3';

async function openPurchaseForm(app: ReturnType<typeof renderApp>) {
  await app.user.click(screen.getByRole('button', { name: 'Obtenir votre licence' }));
  return screen.findByRole('heading', { level: 1, name: 'Obtenir votre licence' });
}

async function fillAndSend(app: ReturnType<typeof renderApp>, email: string, promoCode = '') {
  await app.user.type(screen.getByLabelText('Adresse email'), email);
  if (promoCode) await app.user.type(screen.getByLabelText(/Code promo/), promoCode);
  await app.user.click(screen.getByRole('button', { name: 'Procéder au paiement' }));
}

function errorToasts(app: ReturnType<typeof renderApp>): (string | undefined)[] {
  return (app.wrapper.findFlashbar()?.findItemsByType('error') ?? []).map(
    (toast) => toast.findContent()?.getElement().textContent ?? undefined,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('purchase form of the login card', () => {
  it("switches the card to the purchase form and back with 'Retour à la connexion'", async () => {
    // Arrange
    mockNetwork();
    const app = renderApp('/login');

    // Act
    await openPurchaseForm(app);
    await app.user.click(screen.getByRole('button', { name: 'Retour à la connexion' }));

    // Assert
    expect(await screen.findByRole('heading', { level: 1, name: 'Connexion' })).toBeVisible();
    expect(screen.getByLabelText('Clé de licence')).toBeVisible();
  });

  it('states the amount charged today as the checkout does: 1 100 €, the licence and the first month', async () => {
    mockNetwork();
    const app = renderApp('/login');

    await openPurchaseForm(app);

    // The checkout's "Total dû aujourd'hui" is 1 100,00 € (lines 950 € and 150 € / mois).
    expect(
      screen.getByText(
        /^À payer aujourd'hui : 1\s100\s€ TTC \(licence 950\s€ \+ premier mois 150\s€\), puis 150\s€ TTC par mois\.$/,
      ),
    ).toBeVisible();
  });

  it("refuses an invalid e-mail with 'Adresse email valide requise' and sends nothing", async () => {
    // Arrange
    const network = mockNetwork();
    const app = renderApp('/login');
    await openPurchaseForm(app);

    // Act
    await fillAndSend(app, 'pas-une-adresse');

    // Assert
    const emailField = app.wrapper.findFormField();
    expect(emailField?.findError()?.getElement().textContent).toBe('Adresse email valide requise');
    expect(network.requests.filter((request) => request.url.includes('/api/'))).toHaveLength(0);
  });

  it("reads 'Redirection vers le paiement...' while the session is created, then goes to the payment page", async () => {
    // Arrange
    const assign = watchPageChanges();
    let answer: (response: Response) => void = () => {};
    const network = mockNetwork(
      billingBackend({
        '/api/create-checkout': () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      }),
    );
    const app = renderApp('/login');
    await openPurchaseForm(app);

    // Act
    await fillAndSend(app, 'Maitre.Durand@Cabinet.fr', ' BIENVENUE ');

    // Assert
    const button = await screen.findByRole('button', { name: /Redirection vers le paiement\.\.\./ });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(network.to('/api/create-checkout').map((request) => request.body)).toEqual([
      { email: 'maitre.durand@cabinet.fr', paymentType: 'initial', promoCode: 'BIENVENUE' },
    ]);
    answer(jsonResponse(200, { url: CHECKOUT_URL }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(screen.getByRole('button', { name: /Redirection vers le paiement\.\.\./ })).toBeVisible();
    expect(errorToasts(app)).toEqual([]);
  });

  it('leaves the promo code out when none is typed', async () => {
    // Arrange
    const assign = watchPageChanges();
    const network = mockNetwork(
      billingBackend({ '/api/create-checkout': answerWith(200, { url: CHECKOUT_URL }) }),
    );
    const app = renderApp('/login');
    await openPurchaseForm(app);

    // Act
    await fillAndSend(app, 'maitre.durand@cabinet.fr');

    // Assert
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(network.to('/api/create-checkout')[0]?.body).toEqual({
      email: 'maitre.durand@cabinet.fr',
      paymentType: 'initial',
    });
  });

  it.each([
    [
      'a refused promo code',
      answerWith(400, { error: 'Code promo invalide ou expiré' }),
      'Code promo invalide ou expiré',
    ],
    [
      'a reply with its own error',
      answerWith(200, { error: 'Paiement indisponible' }),
      'Paiement indisponible',
    ],
    ['a reply without URL', answerWith(200, {}), 'Erreur: aucune URL de paiement reçue'],
    [
      'a server failure',
      answerWith(500, { error: 'Erreur interne du serveur. Veuillez réessayer.' }),
      'Erreur lors de la création du paiement',
    ],
    [
      'a server without the payment service',
      answerWith(404, { error: 'Ressource introuvable.' }),
      'Erreur lors de la création du paiement',
    ],
    [
      'an unreachable server',
      () => Promise.reject(new TypeError('Failed to fetch')),
      'Erreur lors de la création du paiement',
    ],
  ] as const)('on %s, says why and lets the buyer try again', async (_case, checkout, message) => {
    // Arrange
    const assign = watchPageChanges();
    mockNetwork(billingBackend({ '/api/create-checkout': checkout }));
    const app = renderApp('/login');
    await openPurchaseForm(app);

    // Act
    await fillAndSend(app, 'maitre.durand@cabinet.fr', 'BIENVENUE');

    // Assert
    await waitFor(() => expect(errorToasts(app)).toEqual([message]));
    expect(app.wrapper.findForm()?.findError()?.getElement().textContent).toBe(message);
    expect(app.wrapper.findFormField()?.findError()).toBeNull();
    expect(
      screen.getByRole('button', { name: 'Procéder au paiement' }).getAttribute('aria-disabled'),
    ).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('/purchase', () => {
  it('shows the purchase form on its own, even to a signed-in lawyer, with a way back to /login', async () => {
    // Arrange
    storeSessionOf('lawyer');
    mockNetwork();
    const app = renderApp('/purchase');

    // Act
    await screen.findByRole('heading', { level: 1, name: 'Obtenir votre licence' });
    await app.user.click(screen.getByRole('link', { name: 'Retour à la connexion' }));

    // Assert
    await waitFor(() => expect(app.pathname()).not.toBe('/purchase'));
    expect(app.pathname()).toBe('/lawyer/welcome');
  });
});

describe('/payment-success', () => {
  it("says the licence is activated, the key comes by e-mail, and links to /login with 'Se connecter maintenant'", async () => {
    // Arrange
    mockNetwork();

    // Act
    const app = renderApp('/payment-success');

    // Assert
    expect(await screen.findByRole('heading', { level: 1, name: 'Paiement réussi !' })).toBeVisible();
    expect(screen.getByText('Votre licence a été activée.')).toBeVisible();
    expect(screen.getByText(/envoyée par e-mail dans quelques minutes.*spam/)).toBeVisible();
    expect(screen.getByText(/Conservez-la précieusement/)).toBeVisible();
    const link = screen.getByRole('link', { name: 'Se connecter maintenant' });
    expect(link.getAttribute('href')).toBe('/login');
    await app.user.click(link);
    await waitFor(() => expect(app.pathname()).toBe('/login'));
  });
});
