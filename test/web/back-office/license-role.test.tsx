import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { License } from '../../../shared';
import { emptyBackend, jsonResponse, mockNetwork, type SentRequest } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { lawyerFixture } from './fixtures';

const LAWYER = lawyerFixture();

/** The admin opens the lawyer's details on /admin/lawyers; the licence is of type `licenseType`. */
async function openDetails(
  licenseType: License['licenseType'],
  onChange?: (request: SentRequest) => Response,
) {
  const network = mockNetwork((request) => {
    if (request.method === 'GET' && request.url.endsWith(`/api/lawyers/${LAWYER.id}/license-type`))
      return jsonResponse(200, { licenseType });
    if (request.method === 'GET' && request.url.includes('/api/lawyers'))
      return jsonResponse(200, { lawyers: [LAWYER], nextCursor: null });
    if (
      request.method === 'PUT' &&
      request.url.endsWith(`/api/lawyers/${LAWYER.id}/license-type`) &&
      onChange
    )
      return onChange(request);
    return emptyBackend(request);
  });
  storeSessionOf('admin');
  const app = renderApp('/admin/lawyers');
  await app.user.click(await screen.findByRole('button', { name: 'Détails de Camille Martin' }));
  const dialog = within(await screen.findByRole('dialog'));
  return { app, network, dialog };
}

describe("the licence's type on the lawyer's details (admin)", () => {
  it("shows a lawyer's licence and makes it a notary's one in one click", async () => {
    // Arrange
    const { app, network, dialog } = await openDetails('lawyer', () =>
      jsonResponse(200, { licenseType: 'notary' }),
    );
    expect((await dialog.findByTestId('license-role')).textContent).toBe('Licence avocat');

    // Act
    await app.user.click(dialog.getByRole('button', { name: 'Passer en licence notaire' }));

    // Assert
    await dialog.findByText('Licence notaire');
    expect(dialog.getByRole('button', { name: 'Passer en licence avocat' })).toBeVisible();
    expect(
      network
        .to(`/api/lawyers/${LAWYER.id}/license-type`)
        .filter((request) => request.method === 'PUT')
        .map((request) => request.body),
    ).toEqual([{ licenseType: 'notary' }]);
    expect(app.wrapper.findFlashbar()?.findItems()[0]?.getElement().textContent).toContain(
      'Licence passée en licence notaire',
    );
  });

  it("makes a notary's licence a lawyer's one again", async () => {
    // Arrange
    const { app, network, dialog } = await openDetails('notary', () =>
      jsonResponse(200, { licenseType: 'lawyer' }),
    );
    await dialog.findByText('Licence notaire');

    // Act
    await app.user.click(dialog.getByRole('button', { name: 'Passer en licence avocat' }));

    // Assert
    await dialog.findByText('Licence avocat');
    expect(
      network
        .to(`/api/lawyers/${LAWYER.id}/license-type`)
        .filter((request) => request.method === 'PUT')
        .map((request) => request.body),
    ).toEqual([{ licenseType: 'lawyer' }]);
  });

  it("keeps the type and shows the server's message when the change is refused", async () => {
    // Arrange
    const { app, dialog } = await openDetails('lawyer', () =>
      jsonResponse(409, { error: "L'avocat a été modifié entre-temps. Veuillez réessayer." }),
    );
    await dialog.findByText('Licence avocat');

    // Act
    await app.user.click(dialog.getByRole('button', { name: 'Passer en licence notaire' }));

    // Assert
    await screen.findAllByText("L'avocat a été modifié entre-temps. Veuillez réessayer.");
    expect(dialog.getByTestId('license-role').textContent).toBe('Licence avocat');
  });
});
