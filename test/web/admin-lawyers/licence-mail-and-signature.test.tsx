import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lawyerFixture } from '../back-office/fixtures';
import { emptyBackend, jsonResponse, mockNetwork, type SentRequest } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';

const SIGNATURE = 'Maître Camille Martin\nAvocate au barreau de Paris\n12 rue de Rivoli, 75001 Paris';
const BOUNCED = lawyerFixture({
  emailSignature: SIGNATURE,
  licenseEmailUndeliveredAt: '2026-11-27T10:00:04.000Z',
});
const DELIVERED = lawyerFixture({
  id: '6f1c1c40-8a52-4d39-9d1d-3f3b5d1e2a02',
  firstName: 'Louis',
  lastName: 'Durand',
  email: 'louis.durand.cabinet@gmail.com',
});

function openLawyers() {
  mockNetwork((request: SentRequest) =>
    new URL(request.url, 'http://localhost').pathname === '/api/lawyers' && request.method === 'GET'
      ? jsonResponse(200, { lawyers: [BOUNCED, DELIVERED], nextCursor: null })
      : emptyBackend(request),
  );
  storeSessionOf('admin');
  return renderApp('/admin/lawyers');
}

describe('/admin/lawyers: an undelivered licence e-mail, a signature as written', () => {
  it("marks the card of a lawyer whose licence e-mail bounced 'E-mail non délivré', and only his", async () => {
    openLawyers();
    const badges = await screen.findAllByText('E-mail non délivré');
    expect(badges).toHaveLength(1);
    expect(screen.getAllByText(/Camille Martin|Louis Durand/).length).toBeGreaterThanOrEqual(2);
  });

  it('shows in the details dialog the undelivered e-mail and the signature on its own lines', async () => {
    const app = openLawyers();
    await app.user.click(await screen.findByRole('button', { name: 'Détails de Camille Martin' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/^E-mail non délivré \(/)).toBeVisible();
    const signature = within(dialog).getByText(
      (_, element) => element?.textContent === SIGNATURE && element.tagName === 'SPAN',
    );
    expect(signature.style.whiteSpace).toBe('pre-line');
  });
});
