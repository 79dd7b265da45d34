import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { jsonResponse, type SentRequest } from '../support/fetch-mock';
import { openSettings, pageLoaded, toasts } from './settings-page';

const DEFAULTS = { pauseAfterFailures: 5, alertEmail: null, dailyDigest: false };

function healthBackend(saved: SentRequest[]) {
  return (request: SentRequest) => {
    const path = new URL(request.url, 'http://localhost').pathname;
    if (path === '/api/health/settings' && request.method === 'GET') return jsonResponse(200, DEFAULTS);
    if (path === '/api/health/settings' && request.method === 'PUT') {
      saved.push(request);
      return jsonResponse(200, request.body);
    }
    return jsonResponse(200, { hours: [], failing: [], failingTotal: 0 });
  };
}

describe("/admin/settings 'Santé des automatisations : réglages' (issue 16)", () => {
  it('shows the defaults and saves a new threshold, address and digest', async () => {
    const saved: SentRequest[] = [];
    const { app } = openSettings({ health: healthBackend(saved) });
    await pageLoaded();
    const threshold = await screen.findByLabelText('Suspendre après ce nombre d’échecs consécutifs');
    await waitFor(() => expect(threshold).toHaveProperty('value', '5'));

    await app.user.clear(threshold);
    await app.user.type(threshold, '3');
    await app.user.type(
      screen.getByLabelText('Adresse des alertes de l’administrateur'),
      'Veille@Cabinet.fr',
    );
    await app.user.click(
      screen.getByLabelText('Recevoir chaque matin le résumé des automatisations en échec'),
    );
    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    await waitFor(() => expect(toasts('success')).toContain('Réglages de santé enregistrés'));
    expect(saved.map((request) => request.body)).toEqual([
      { pauseAfterFailures: 3, alertEmail: 'veille@cabinet.fr', dailyDigest: true },
    ]);
  });

  it('says under the field what is wrong, and sends nothing', async () => {
    const saved: SentRequest[] = [];
    const { app } = openSettings({ health: healthBackend(saved) });
    await pageLoaded();
    const threshold = await screen.findByLabelText('Suspendre après ce nombre d’échecs consécutifs');
    await waitFor(() => expect(threshold).toHaveProperty('value', '5'));

    await app.user.clear(threshold);
    await app.user.type(threshold, '0');
    await app.user.type(screen.getByLabelText('Adresse des alertes de l’administrateur'), 'pas-une-adresse');
    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(
      await screen.findByText("Le nombre d'échecs avant suspension doit être un entier entre 1 et 50"),
    ).toBeTruthy();
    expect(screen.getByText("Adresse e-mail d'alerte invalide")).toBeTruthy();
    expect(saved).toEqual([]);
  });
});
