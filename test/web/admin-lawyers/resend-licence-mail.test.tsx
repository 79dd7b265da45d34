import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lawyerFixture } from '../back-office/fixtures';
import { emptyBackend, jsonResponse, mockNetwork, type SentRequest } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';

const BOUNCED = lawyerFixture({ licenseEmailUndeliveredAt: '2026-11-27T10:00:04.000Z' });
const RESEND_PATH = `/api/lawyers/${BOUNCED.id}/license-email`;

/**
 * The admin opens the details of a lawyer whose licence e-mail bounced; `onResend` answers the
 * resend, and once it succeeded the server lists the lawyer without the mark.
 */
async function openBouncedDetails(onResend: () => Response) {
  let lawyer = BOUNCED;
  const network = mockNetwork((request: SentRequest) => {
    const path = new URL(request.url, 'http://localhost').pathname;
    if (path === '/api/lawyers' && request.method === 'GET')
      return jsonResponse(200, { lawyers: [lawyer], nextCursor: null });
    if (path === RESEND_PATH && request.method === 'POST') {
      const reply = onResend();
      if (reply.ok) lawyer = { ...BOUNCED, licenseEmailUndeliveredAt: null };
      return reply;
    }
    return emptyBackend(request);
  });
  storeSessionOf('admin');
  const app = renderApp('/admin/lawyers');
  await app.user.click(await screen.findByRole('button', { name: 'Détails de Camille Martin' }));
  const dialog = within(await screen.findByRole('dialog'));
  return { app, network, dialog };
}

describe("/admin/lawyers: 'Renvoyer la clé par e-mail' where the licence e-mail was not delivered", () => {
  it('sends the key again, says where in the Flashbar and drops the mark from the card', async () => {
    // Arrange
    const { app, network, dialog } = await openBouncedDetails(() =>
      jsonResponse(200, { sentTo: BOUNCED.email }),
    );

    // Act
    await app.user.click(dialog.getByRole('button', { name: 'Renvoyer la clé par e-mail' }));

    // Assert
    await dialog.findByText(`Clé renvoyée à ${BOUNCED.email}`);
    expect(network.to(RESEND_PATH).map((request) => request.method)).toEqual(['POST']);
    expect(dialog.queryByRole('button', { name: 'Renvoyer la clé par e-mail' })).toBeNull();
    expect(app.wrapper.findFlashbar()?.findItems()[0]?.getElement().textContent).toContain(
      `Clé de licence renvoyée à ${BOUNCED.email}`,
    );
    await app.user.click(dialog.getByRole('button', { name: 'Fermer' }));
    await waitFor(() => expect(screen.queryByText('E-mail non délivré')).toBeNull());
    expect(screen.getByRole('button', { name: 'Détails de Camille Martin' })).toBeVisible();
  });

  it("shows the server's refusal in the Flashbar and keeps the mark and the button", async () => {
    // Arrange
    const refusal = 'Une clé vient déjà d’être renvoyée à cette adresse : réessayez dans quelques minutes.';
    const { app, dialog } = await openBouncedDetails(() => jsonResponse(429, { error: refusal }));

    // Act
    await app.user.click(dialog.getByRole('button', { name: 'Renvoyer la clé par e-mail' }));

    // Assert
    await screen.findAllByText(refusal);
    expect(app.wrapper.findFlashbar()?.findItems()[0]?.getElement().textContent).toContain(refusal);
    expect(dialog.getByText(/^E-mail non délivré \(/).textContent).toContain('E-mail non délivré');
    expect(dialog.getByRole('button', { name: 'Renvoyer la clé par e-mail' })).toBeVisible();
  });
});
