import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { jsonResponse, type SentRequest } from '../support/fetch-mock';
import { openSettings, pageLoaded, toasts } from './settings-page';

const DEFAULTS = { pauseAfterFailures: 5, alertEmail: null, dailyDigest: false };
const NO_ALERT_ADDRESS =
  'Aucune adresse d’alerte : les alertes destinées à l’administrateur (automatisation suspendue, résumé quotidien) ne sont envoyées à personne. Saisissez une adresse ci-dessous.';

function healthBackend(saved: SentRequest[], deploymentAlertEmail: string | null = 'astreinte@cabinet.fr') {
  return (request: SentRequest) => {
    const path = new URL(request.url, 'http://localhost').pathname;
    if (path === '/api/health/settings' && request.method === 'GET')
      return jsonResponse(200, { ...DEFAULTS, deploymentAlertEmail });
    if (path === '/api/health/settings' && request.method === 'PUT') {
      saved.push(request);
      return jsonResponse(200, { ...(request.body as object), deploymentAlertEmail });
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
    ).toBeVisible();
    expect(screen.getByText("Adresse e-mail d'alerte invalide")).toBeVisible();
    expect(saved).toEqual([]);
  });

  it('shows the address chosen at deployment, and no warning while there is one', async () => {
    openSettings({ health: healthBackend([]) });
    await pageLoaded();
    expect(
      await screen.findByText('Vide : l’adresse choisie au déploiement (astreinte@cabinet.fr).'),
    ).toBeVisible();
    expect(screen.queryByText(NO_ALERT_ADDRESS)).toBeNull();
  });

  it('warns until an alert address is set, and stops once one is saved', async () => {
    const saved: SentRequest[] = [];
    const { app } = openSettings({ health: healthBackend(saved, null) });
    await pageLoaded();
    expect(await screen.findByText(NO_ALERT_ADDRESS)).toBeVisible();
    expect(screen.getByText('Vide : aucune, faute d’adresse choisie au déploiement.')).toBeVisible();

    await app.user.type(
      screen.getByLabelText('Adresse des alertes de l’administrateur'),
      'veille@cabinet.fr',
    );
    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    await waitFor(() => expect(screen.queryByText(NO_ALERT_ADDRESS)).toBeNull());
    expect(saved.map((request) => request.body)).toEqual([
      { pauseAfterFailures: 5, alertEmail: 'veille@cabinet.fr', dailyDigest: false },
    ]);
  });
});
