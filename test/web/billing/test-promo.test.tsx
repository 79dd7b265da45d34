import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { jsonResponse, mockNetwork } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { answerWith, billingBackend } from './billing-support';

const CREATE = 'Créer un code promo à 100 %';
const CREATED = { success: true, promoCode: 'TEST-4F7K2Q9M', percentOff: 100 };

type App = ReturnType<typeof renderApp>;

function toasts(app: App, type: 'success' | 'error'): (string | undefined)[] {
  return (app.wrapper.findFlashbar()?.findItemsByType(type) ?? []).map(
    (toast) => toast.findContent()?.getElement().textContent ?? undefined,
  );
}

/** An admin opens /admin/test-promo and creates a code that create-promo-code answers with `reply`. */
async function createCode(status: number, reply: unknown) {
  storeSessionOf('admin');
  const network = mockNetwork(billingBackend({ '/api/create-promo-code': answerWith(status, reply) }));
  const app = renderApp('/admin/test-promo');
  await app.user.click(await screen.findByRole('button', { name: CREATE }));
  return { app, network };
}

/** The copy button, found by what it reads. */
function copyButton(name: string) {
  const button = createWrapper(document.body)
    .findAllButtons()
    .find((candidate) => candidate.getElement().textContent === name);
  if (!button) throw new Error(`Aucun bouton « ${name} »`);
  return button;
}

describe('/admin/test-promo', () => {
  it('shows the usage steps and the warnings before any code is created', async () => {
    // Arrange
    storeSessionOf('admin');
    mockNetwork();

    // Act
    renderApp('/admin/test-promo');

    // Assert
    expect(await screen.findByRole('heading', { level: 1, name: 'Code promo test' })).toBeVisible();
    expect(screen.getByText('Ouvrez la page de connexion (/login).')).toBeVisible();
    expect(screen.getByText('Cliquez sur « Obtenir votre licence ».')).toBeVisible();
    expect(screen.getByText(/Saisissez une adresse e-mail/)).toBeVisible();
    expect(screen.getByText(/Saisissez le code/)).toBeVisible();
    expect(screen.getByText(/le montant dû est de 0 €/)).toBeVisible();
    expect(screen.getByText(/100 % de réduction/)).toBeVisible();
    expect(screen.getByText(/10 fois au maximum/)).toBeVisible();
    expect(screen.getByText(/fonctionne en production/)).toBeVisible();
  });

  it("creates a code, says 'Code promo créé !' and shows it", async () => {
    // Arrange, Act
    const { app, network } = await createCode(200, CREATED);

    // Assert
    await waitFor(() => expect(toasts(app, 'success')).toEqual(['Code promo créé !']));
    expect(screen.getByTestId('promo-code').textContent).toBe('TEST-4F7K2Q9M');
    expect(network.to('/api/create-promo-code')).toHaveLength(1);
    expect(network.to('/api/create-promo-code')[0]?.headers.authorization).toMatch(/^Bearer token-admin-/);
  });

  it.each([
    [
      'a server failure',
      500,
      { error: 'Erreur interne du serveur. Veuillez réessayer.' },
      'Impossible de créer le code promo',
    ],
    ['a reply without code', 200, { success: true }, 'Impossible de créer le code promo'],
    [
      'a refusal with its reason',
      200,
      { success: false, error: 'Stripe indisponible' },
      'Stripe indisponible',
    ],
  ] as const)('on %s, says why and shows no code', async (_case, status, reply, message) => {
    // Arrange, Act
    const { app } = await createCode(status, reply);

    // Assert
    await waitFor(() => expect(toasts(app, 'error')).toEqual([message]));
    expect(screen.queryByTestId('promo-code')).toBeNull();
  });

  it('sends one Idempotency-Key per code asked for: the same on a retry after an error, a new one after a code', async () => {
    // Arrange: the first sending is lost (503), the retry and the next code are answered.
    storeSessionOf('admin');
    const replies = [
      jsonResponse(503, { error: 'Service momentanément indisponible' }),
      jsonResponse(200, CREATED),
    ];
    const network = mockNetwork(
      billingBackend({
        '/api/create-promo-code': () =>
          replies.shift() ?? jsonResponse(200, { ...CREATED, promoCode: 'TESTSECOND2' }),
      }),
    );
    const app = renderApp('/admin/test-promo');
    const create = async () => app.user.click(await screen.findByRole('button', { name: CREATE }));
    await create();
    await waitFor(() => expect(toasts(app, 'error')).toHaveLength(1));

    // Act
    await create();
    await screen.findByTestId('promo-code');
    await create();
    await waitFor(() => expect(screen.getByTestId('promo-code').textContent).toBe('TESTSECOND2'));

    // Assert
    const keys = network.to('/api/create-promo-code').map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it("copies the code and reads 'Copié !' for 2 seconds", async () => {
    // Arrange
    await createCode(200, CREATED);
    await screen.findByTestId('promo-code');
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    vi.useFakeTimers();

    // Act
    copyButton('Copier').click();
    await act(async () => {});

    // Assert
    expect(writeText).toHaveBeenCalledWith('TEST-4F7K2Q9M');
    expect(copyButton('Copié !').getElement()).toBeVisible();
    act(() => vi.advanceTimersByTime(1_999));
    expect(copyButton('Copié !').getElement()).toBeVisible();
    act(() => vi.advanceTimersByTime(1));
    expect(copyButton('Copier').getElement()).toBeVisible();
  });

  it("says 'Impossible de copier le code' when the clipboard refuses", async () => {
    // Arrange
    const { app } = await createCode(200, CREATED);
    await screen.findByTestId('promo-code');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('Refusé', 'NotAllowedError'),
    );

    // Act
    await app.user.click(copyButton('Copier').getElement());

    // Assert
    await waitFor(() => expect(toasts(app, 'error')).toEqual(['Impossible de copier le code']));
    expect(copyButton('Copier').getElement()).toBeVisible();
  });
});
