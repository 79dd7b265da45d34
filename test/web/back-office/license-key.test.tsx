import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { DETAILS_TEXT } from '../../../web/src/components/lawyer-details/strings';
import { emptyBackend, jsonResponse, mockNetwork } from '../support/fetch-mock';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { lawyerFixture } from './fixtures';

describe("a lawyer's licence key on /admin/lawyers", () => {
  it('shows the key masked on the card and reveals it on demand, once', async () => {
    // Arrange
    const lawyer = lawyerFixture({ licenseKey: 'NOTARY-••••CD34' });
    const network = mockNetwork((request) => {
      const path = new URL(request.url, 'http://localhost').pathname;
      if (request.method === 'GET' && path === '/api/lawyers')
        return jsonResponse(200, { lawyers: [lawyer], nextCursor: null });
      if (path === `/api/lawyers/${lawyer.id}/reveal-license-key`)
        return jsonResponse(200, { licenseKey: 'NOTARY-AB12CD34' });
      return emptyBackend(request);
    });
    storeSessionOf('admin');
    const app = renderApp('/admin/lawyers');

    // Act
    expect(await screen.findByText('NOTARY-••••CD34')).toBeVisible();
    expect(screen.queryByText('NOTARY-AB12CD34')).toBeNull();
    await app.user.click(screen.getByRole('button', { name: DETAILS_TEXT.revealKeyLabel }));

    // Assert
    expect(await screen.findByText('NOTARY-AB12CD34')).toBeVisible();
    expect(screen.queryByRole('button', { name: DETAILS_TEXT.revealKeyLabel })).toBeNull();
    const reveals = network.to(`/api/lawyers/${lawyer.id}/reveal-license-key`);
    expect(reveals.map((request) => request.method)).toEqual(['POST']);
    expect(within(document.body).queryAllByText('NOTARY-••••CD34')).toEqual([]);
  });
});
