import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { SubscriptionView } from '../../../shared';
import { PRICES } from '../../../web/src/config/prices';
import { jsonResponse, mockNetwork, type SentRequest } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storedSession, storeSessionOf } from '../support/sessions';
import { answerWith, billingBackend, inDays, subscriptionView, watchPageChanges } from './billing-support';

const PORTAL_URL = 'https://billing.stripe.com/p/session/test_YWNjdF8x';

type App = ReturnType<typeof renderApp>;

/** A signed-in lawyer opens a subscription page; check-subscription answers `view`. */
async function openAs(
  path: string,
  view: SubscriptionView,
  answers: Parameters<typeof billingBackend>[0] = {},
) {
  storeSessionOf('lawyer', { licenseKey: 'NOTARY-K7Q2M9XB' });
  const network = mockNetwork(
    billingBackend({ '/api/check-subscription': answerWith(200, view), ...answers }),
  );
  const app = renderApp(path);
  await screen.findByText('Mon abonnement');
  return { app, network };
}

function toasts(app: App, type: 'success' | 'error' | 'info'): (string | undefined)[] {
  return (app.wrapper.findFlashbar()?.findItemsByType(type) ?? []).map(
    (toast) => toast.findContent()?.getElement().textContent ?? undefined,
  );
}

function statusBadge() {
  const badge = createWrapper(screen.getByTestId('subscription-status')).findBadge();
  if (!badge) throw new Error("Le badge de statut n'est pas affiché");
  return { label: badge.getElement().textContent, className: badge.getElement().className };
}

function nextDebit(): { readonly text: string | null; readonly red: boolean } {
  const element = screen.getByTestId('next-debit');
  return {
    text: element.textContent,
    red: element.querySelector('[class*="color-text-status-error"]') !== null,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('subscription status badge', () => {
  it.each([
    ['active', true, 'Actif', 'green'],
    ['past_due', true, 'Paiement en retard', 'red'],
    ['canceled', true, 'Annulé', 'grey'],
    ['incomplete', true, 'Incomplet', 'blue'],
    ['trialing', true, 'trialing', 'grey'],
    [null, true, 'Aucun abonnement', 'grey'],
    ['active', false, 'Inactive', 'red'],
    ['past_due', false, 'Inactive', 'red'],
  ] as const)(
    "/subscription reads '%s' (licence active: %s) as '%s'",
    async (subscriptionStatus, licenseActive, label, color) => {
      // Arrange, Act
      await openAs('/subscription', subscriptionView({ subscriptionStatus, licenseActive }));

      // Assert
      const badge = statusBadge();
      expect(badge.label).toBe(label);
      expect(badge.className).toMatch(new RegExp(`badge-color-${color}`));
    },
  );

  it.each([
    ['active', true, 'Actif', 'green'],
    ['past_due', true, 'Impayé', 'red'],
    ['incomplete', true, 'Incomplet', 'blue'],
    ['canceled', true, 'Résilié', 'grey'],
    ['cancelled', true, 'Résilié', 'grey'],
    ['none', true, 'Aucun abonnement', 'grey'],
    [null, true, 'Aucun abonnement', 'grey'],
    ['trialing', true, 'trialing', 'grey'],
    ['active', false, 'Résilié', 'grey'],
    ['unpaid', false, 'Résilié', 'grey'],
  ] as const)(
    "/lawyer/settings reads '%s' (licence active: %s) as '%s'",
    async (subscriptionStatus, licenseActive, label, color) => {
      // Arrange, Act
      await openAs('/lawyer/settings', subscriptionView({ subscriptionStatus, licenseActive }));

      // Assert
      const badge = statusBadge();
      expect(badge.label).toBe(label);
      expect(badge.className).toMatch(new RegExp(`badge-color-${color}`));
    },
  );
});

describe('subscription details', () => {
  it('shows the licence key, the next debit in French long format and the prices', async () => {
    // Arrange
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 10, 3, 9, 0) });

    // Act
    await openAs(
      '/lawyer/settings',
      subscriptionView({ nextPaymentDue: new Date(2026, 10, 23, 10).toISOString() }),
    );

    // Assert
    expect(screen.getByRole('heading', { level: 1, name: "Gestion de l'abonnement" })).toBeVisible();
    expect(screen.getByText('NOTARY-K7Q2M9XB')).toBeVisible();
    expect(nextDebit()).toEqual({ text: '23 novembre 2026', red: false });
    expect(screen.queryByText('Paiement en retard')).toBeNull();
    // Testing Library collapses the narrow no-break space Intl puts before '€'.
    expect(screen.getByText(`${PRICES.initial} TTC`.replace(/\s+/g, ' '))).toBeVisible();
    expect(screen.getByText(`${PRICES.monthly} TTC`.replace(/\s+/g, ' '))).toBeVisible();
    expect(screen.getByText(/TVA non applicable, article 293 B du CGI/)).toBeVisible();
  });

  it.each([
    ['earlier', new Date(2026, 10, 2, 23, 30)],
    ['today, later in the day', new Date(2026, 10, 3, 18, 0)],
  ])('shows a debit due %s in red with the overdue warning', async (_when, due) => {
    // Arrange
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 10, 3, 9, 0) });

    // Act
    await openAs('/subscription', subscriptionView({ nextPaymentDue: due.toISOString() }));

    // Assert
    expect(nextDebit().red).toBe(true);
    const alert = app().findAlert();
    expect(alert?.findHeader()?.getElement().textContent).toBe('Paiement en retard');
    expect(alert?.findContent().getElement().textContent).toBe(
      'Votre abonnement mensuel est en retard. Gérez votre abonnement pour éviter la suspension.',
    );
  });

  it("shows 'Non défini' when no debit date is known, and no warning", async () => {
    // Arrange, Act
    await openAs('/lawyer/settings', subscriptionView({ nextPaymentDue: null }));

    // Assert
    expect(nextDebit()).toEqual({ text: 'Non défini', red: false });
    expect(app().findAlert()).toBeNull();
  });

  it("says 'Aucune licence trouvée' and offers the purchase in a new tab when there is no licence", async () => {
    // Arrange
    storeSessionOf('lawyer');
    mockNetwork(
      billingBackend({
        '/api/check-subscription': answerWith(
          200,
          subscriptionView({
            hasLicense: false,
            licenseActive: false,
            subscriptionStatus: null,
            licenseKey: null,
            nextPaymentDue: null,
          }),
        ),
      }),
    );

    // Act
    renderApp('/lawyer/settings');

    // Assert
    const alert = await waitFor(() => {
      const found = app().findAlert();
      if (!found) throw new Error('pas encore');
      return found;
    });
    expect(alert.findHeader()?.getElement().textContent).toBe('Aucune licence trouvée');
    expect(alert.findContent().getElement().textContent).toBe(
      'Vous devez acheter une licence pour accéder à Assistant IA Juridique.',
    );
    const purchase = within(alert.getElement()).getByRole('link', { name: /Acheter une licence/ });
    expect(purchase.getAttribute('href')).toBe('/purchase');
    expect(purchase.getAttribute('target')).toBe('_blank');
    expect(screen.queryByRole('button', { name: /Portail client/ })).toBeNull();
    expect(screen.queryByRole('button', { name: "Résilier l'abonnement" })).toBeNull();
    expect(screen.getByRole('button', { name: 'Actualiser' })).toBeVisible();
  });
});

/** The root wrapper of the whole document (alerts, modals). */
function app() {
  return createWrapper(document.body);
}

describe('loading the subscription', () => {
  it("asks the server once on load and again on 'Actualiser', then says 'Statut d'abonnement mis à jour'", async () => {
    // Arrange
    const views = [subscriptionView({ subscriptionStatus: 'past_due' }), subscriptionView()];
    const { app: page, network } = await openAs('/subscription', subscriptionView(), {
      '/api/check-subscription': () => jsonResponse(200, views.shift()),
    });
    expect(statusBadge().label).toBe('Paiement en retard');

    // Act
    await page.user.click(screen.getByRole('button', { name: 'Actualiser' }));

    // Assert
    await waitFor(() => expect(toasts(page, 'success')).toContain("Statut d'abonnement mis à jour"));
    expect(statusBadge().label).toBe('Actif');
    expect(network.to('/api/check-subscription')).toHaveLength(2);
    expect(network.to('/api/check-subscription')[0]?.headers.authorization).toMatch(/^Bearer token-lawyer-/);
  });

  it("says 'Erreur lors de la vérification de l'abonnement' when 'Actualiser' fails, and keeps the last state", async () => {
    // Arrange
    const answers: Response[] = [jsonResponse(200, subscriptionView()), jsonResponse(500, { error: 'x' })];
    const { app: page } = await openAs('/subscription', subscriptionView(), {
      '/api/check-subscription': () => answers.shift() ?? jsonResponse(500, {}),
    });

    // Act
    await page.user.click(screen.getByRole('button', { name: 'Actualiser' }));

    // Assert
    await waitFor(() =>
      expect(toasts(page, 'error')).toEqual(["Erreur lors de la vérification de l'abonnement"]),
    );
    expect(statusBadge().label).toBe('Actif');
  });

  it("says 'Impossible de récupérer les informations d'abonnement' when the first load fails, and retries", async () => {
    // Arrange
    storeSessionOf('lawyer');
    // The read and its one automatic retry fail; the user's retry is answered.
    const answers: Response[] = [
      jsonResponse(500, {}),
      jsonResponse(500, {}),
      jsonResponse(200, subscriptionView()),
    ];
    mockNetwork(
      billingBackend({ '/api/check-subscription': () => answers.shift() ?? jsonResponse(500, {}) }),
    );
    const page = renderApp('/lawyer/settings');
    expect(await screen.findByText("Impossible de récupérer les informations d'abonnement")).toBeVisible();

    // Act
    await page.user.click(screen.getByRole('button', { name: 'Réessayer' }));

    // Assert
    expect(await screen.findByText('Mon abonnement')).toBeVisible();
    expect(statusBadge().label).toBe('Actif');
  });

  it('asks a visitor without a session to sign in, and sends nothing', async () => {
    // Arrange
    const network = mockNetwork();

    // Act
    const page = renderApp('/subscription');

    // Assert
    expect(await screen.findByText('Connexion requise')).toBeVisible();
    expect(network.to('/api/check-subscription')).toHaveLength(0);
    // The page's own link; the top bar has one too.
    const links = screen.getAllByRole('link', { name: 'Se connecter' });
    expect(links).toHaveLength(2);
    await page.user.click(links.at(-1) as HTMLElement);
    await waitFor(() => expect(page.pathname()).toBe('/login'));
  });

  it('tells an administrator that his licence has no subscription, and sends nothing', async () => {
    // Arrange
    storeSessionOf('admin');
    const network = mockNetwork();

    // Act
    renderApp('/subscription');

    // Assert
    expect(await screen.findByText('Réservé aux licences avocat')).toBeVisible();
    expect(network.to('/api/check-subscription')).toHaveLength(0);
  });
});

describe('customer portal', () => {
  /** A stand-in for the tab `window.open` returns. */
  function fakeTab() {
    return { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
  }

  it('opens a tab within the click, then sends it to the portal', async () => {
    // Arrange
    const tab = fakeTab();
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    let answer: (response: Response) => void = () => {};
    const { app: page, network } = await openAs('/lawyer/settings', subscriptionView(), {
      '/api/customer-portal': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });

    // Act
    await page.user.click(screen.getByRole('button', { name: /Portail client/ }));

    // Assert
    await waitFor(() => expect(network.to('/api/customer-portal')).toHaveLength(1));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(tab.location.href).toBe('');
    answer(jsonResponse(200, { url: PORTAL_URL }));
    await waitFor(() => expect(tab.location.href).toBe(PORTAL_URL));
    expect(tab.close).not.toHaveBeenCalled();
  });

  it('goes to the portal in this tab when the browser refuses the new one', async () => {
    // Arrange
    vi.spyOn(window, 'open').mockReturnValue(null);
    const assign = watchPageChanges();
    const { app: page } = await openAs('/lawyer/settings', subscriptionView(), {
      '/api/customer-portal': answerWith(200, { url: PORTAL_URL }),
    });

    // Act
    await page.user.click(screen.getByRole('button', { name: /Portail client/ }));

    // Assert
    await waitFor(() => expect(assign).toHaveBeenCalledWith(PORTAL_URL));
  });

  it.each([
    ['a server failure', answerWith(500, { error: 'Erreur interne du serveur. Veuillez réessayer.' })],
    ['a reply without URL', answerWith(200, {})],
  ])("closes the tab and says 'Impossible d'ouvrir le portail client' on %s", async (_case, portal) => {
    // Arrange
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { app: page } = await openAs('/lawyer/settings', subscriptionView(), {
      '/api/customer-portal': portal,
    });

    // Act
    await page.user.click(screen.getByRole('button', { name: /Portail client/ }));

    // Assert
    await waitFor(() => expect(toasts(page, 'error')).toEqual(["Impossible d'ouvrir le portail client"]));
    expect(tab.close).toHaveBeenCalled();
    expect(tab.location.href).toBe('');
  });
});

describe('associate the licence to the e-mail', () => {
  it("sends the licence key, says 'Licence mise à jour' and reloads the subscription", async () => {
    // Arrange
    const { app: page, network } = await openAs('/lawyer/settings', subscriptionView(), {
      '/api/update-license-email': answerWith(200, { success: true }),
    });

    // Act
    await page.user.click(screen.getByRole('button', { name: 'Associer la licence à mon e-mail' }));

    // Assert
    await waitFor(() => expect(toasts(page, 'success')).toContain('Licence mise à jour'));
    expect(network.to('/api/update-license-email').map((request: SentRequest) => request.body)).toEqual([
      { licenseKey: 'NOTARY-K7Q2M9XB' },
    ]);
    await waitFor(() => expect(network.to('/api/check-subscription')).toHaveLength(2));
  });

  it("says 'Impossible de mettre à jour la licence. Veuillez réessayer.' when the server fails", async () => {
    // Arrange
    const { app: page } = await openAs('/lawyer/settings', subscriptionView(), {
      '/api/update-license-email': answerWith(500, {
        error: 'Erreur interne du serveur. Veuillez réessayer.',
      }),
    });

    // Act
    await page.user.click(screen.getByRole('button', { name: 'Associer la licence à mon e-mail' }));

    // Assert
    await waitFor(() =>
      expect(toasts(page, 'error')).toEqual(['Impossible de mettre à jour la licence. Veuillez réessayer.']),
    );
  });
});

describe('cancel the subscription', () => {
  it('asks for confirmation and sends nothing when the lawyer steps back', async () => {
    // Arrange
    const { app: page, network } = await openAs('/lawyer/settings', subscriptionView());

    // Act
    await page.user.click(screen.getByRole('button', { name: "Résilier l'abonnement" }));
    const modal = app().findModal();
    expect(modal?.findHeader().getElement().textContent).toBe("Résilier l'abonnement ?");
    await page.user.click(
      within(modal?.getElement() ?? document.body).getByRole('button', { name: 'Annuler' }),
    );

    // Assert
    await waitFor(() => expect(app().findModal()?.isVisible() ?? false).toBe(false));
    expect(network.to('/api/cancel-subscription')).toHaveLength(0);
  });

  it('stops the renewal, keeps the lawyer signed in and says until when access lasts', async () => {
    // Arrange: the end of the paid month, then the same subscription with its cancellation scheduled.
    const paidUntil = '2026-12-27T11:00:00.000Z';
    let cancelled = false;
    const { app: page, network } = await openAs(
      '/lawyer/settings',
      subscriptionView({ nextPaymentDue: paidUntil }),
      {
        '/api/check-subscription': () =>
          jsonResponse(
            200,
            cancelled
              ? subscriptionView({ nextPaymentDue: null, accessEndsAt: paidUntil })
              : subscriptionView({ nextPaymentDue: paidUntil }),
          ),
        '/api/cancel-subscription': () => {
          cancelled = true;
          return jsonResponse(200, { success: true });
        },
      },
    );

    // Act
    await page.user.click(screen.getByRole('button', { name: "Résilier l'abonnement" }));
    const modal = app().findModal();
    expect(modal?.findContent().getElement().textContent).toContain(
      "Vous gardez l'accès jusqu'au 27 décembre 2026, fin de la période mensuelle payée",
    );
    await page.user.click(
      within(modal?.getElement() ?? document.body).getByRole('button', { name: 'Résilier' }),
    );

    // Assert
    const notice = await screen.findByTestId('scheduled-cancellation');
    expect(createWrapper(notice).findAlert()?.findHeader()?.getElement().textContent).toBe(
      "Résiliation programmée : accès jusqu'au 27 décembre 2026",
    );
    expect(toasts(page, 'success')).toContain("Résiliation programmée : accès jusqu'au 27 décembre 2026");
    expect(nextDebit().text).toBe('Aucun (résiliation programmée)');
    expect(statusBadge().label).toBe('Actif');
    expect(page.pathname()).toBe('/lawyer/settings');
    expect(storedSession()).not.toBeNull();
    expect(network.to('/api/cancel-subscription').map((request) => request.body)).toEqual([
      { licenseKey: 'NOTARY-K7Q2M9XB' },
    ]);
    const cancel = screen.getByRole('button', { name: "Résilier l'abonnement" }) as HTMLButtonElement;
    expect(cancel.disabled).toBe(true);
  });

  it.each(['/lawyer/settings', '/subscription'])(
    'reactivates a scheduled cancellation in one click on %s',
    async (path) => {
      // Arrange
      let reactivated = false;
      const { app: page, network } = await openAs(path, subscriptionView(), {
        '/api/check-subscription': () =>
          jsonResponse(
            200,
            reactivated
              ? subscriptionView({ nextPaymentDue: '2026-12-27T11:00:00.000Z' })
              : subscriptionView({ nextPaymentDue: null, accessEndsAt: '2026-12-27T11:00:00.000Z' }),
          ),
        '/api/reactivate-subscription': () => {
          reactivated = true;
          return jsonResponse(200, { success: true });
        },
      });
      await screen.findByTestId('scheduled-cancellation');

      // Act
      await page.user.click(screen.getByRole('button', { name: "Réactiver l'abonnement" }));

      // Assert
      await waitFor(() => expect(screen.queryByTestId('scheduled-cancellation')).toBeNull());
      expect(toasts(page, 'success')).toContain(
        'Abonnement réactivé : il se renouvellera chaque mois comme avant.',
      );
      expect(nextDebit().text).toBe('27 décembre 2026');
      expect(network.to('/api/reactivate-subscription').map((request) => request.body)).toEqual([
        { licenseKey: 'NOTARY-K7Q2M9XB' },
      ]);
    },
  );

  it("says 'Impossible de résilier l'abonnement. Veuillez réessayer ou contacter le support.' and stays signed in on failure", async () => {
    // Arrange
    const { app: page } = await openAs('/lawyer/settings', subscriptionView(), {
      '/api/cancel-subscription': answerWith(500, {
        error: 'Erreur interne du serveur. Veuillez réessayer.',
      }),
    });

    // Act
    await page.user.click(screen.getByRole('button', { name: "Résilier l'abonnement" }));
    const modal = app().findModal();
    await page.user.click(
      within(modal?.getElement() ?? document.body).getByRole('button', { name: 'Résilier' }),
    );

    // Assert
    await waitFor(() =>
      expect(toasts(page, 'error')).toEqual([
        "Impossible de résilier l'abonnement. Veuillez réessayer ou contacter le support.",
      ]),
    );
    expect(page.pathname()).toBe('/lawyer/settings');
    expect(storedSession()).not.toBeNull();
  });

  it('offers no cancellation for a licence that is already inactive', async () => {
    // Arrange, Act
    await openAs(
      '/lawyer/settings',
      subscriptionView({ licenseActive: false, subscriptionStatus: 'canceled' }),
    );

    // Assert
    const cancel = screen.getByRole('button', { name: "Résilier l'abonnement" }) as HTMLButtonElement;
    expect(cancel.disabled).toBe(true);
  });
});

describe('next debit date of a past debit', () => {
  it('is not flagged once the licence is inactive (nothing is chased any more)', async () => {
    // Arrange, Act
    await openAs('/subscription', subscriptionView({ licenseActive: false, nextPaymentDue: inDays(-3) }));

    // Assert
    expect(nextDebit().red).toBe(false);
    expect(app().findAlert()).toBeNull();
  });
});

describe("a notary's subscription page", () => {
  it('gives the notary /notary/subscription from his menu: status, portal and cancellation', async () => {
    // Arrange
    storeSessionOf('notary', { licenseKey: 'NOTARY-K7Q2M9XB' });
    mockNetwork(billingBackend({ '/api/check-subscription': answerWith(200, subscriptionView()) }));
    const page = renderApp('/notary/welcome');

    // Act
    await page.user.click(await screen.findByRole('link', { name: 'Abonnement' }));

    // Assert
    await screen.findByText('Mon abonnement');
    expect(page.pathname()).toBe('/notary/subscription');
    expect(statusBadge().label).toBe('Actif');
    expect(screen.getByRole('button', { name: /^Portail client/ })).toBeVisible();
    expect(
      (screen.getByRole('button', { name: "Résilier l'abonnement" }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });
});
