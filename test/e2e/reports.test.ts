import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { launchChromium, newContext, screenshot, seriousAccessibilityViolations } from './support/browser';
import { LoginPage } from './support/login-page';
import { startN8nStandIn } from './support/n8n-stand-in';

/**
 * Completion reports, 'Rejouer' and 'Exporter mes données' in Chromium against the local runtime.
 * A receiver stands in for n8n: on /ok it reports a success to the body's `report.url`, on /ko a
 * failure. Two automations of the seeded lawyer, scheduled every minute, are called by the minute
 * tick; the lawyer reads their reports in the history, replays a run, and exports his firm's data;
 * the admin exports it from the lawyer's details. Real waits: the first tick can be a minute away.
 */
describe('completion reports, replay and export', () => {
  const baseUrl = inject('baseUrl');
  const stamp = Date.now();
  const reporting = `Classement rapporté ${stamp}`;
  const failing = `Classement en échec ${stamp}`;
  const sometimes = `Classement irrégulier ${stamp}`;
  /** Calls of the irregular workflow: it reports its first 3 (a habit), then one call in two. */
  let sometimesCalls = 0;
  let browser: Browser;
  let lawyer: Page;
  let admin: Page;
  let receiver: Awaited<ReturnType<typeof startN8nStandIn>>;
  let receiverUrl = '';
  let adminToken = '';
  let lawyerId = '';

  const api = async <T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const tokenOf = async (licenseKey: string) =>
    (await api<{ token: string }>('POST', '/api/verify-license', null, { licenseKey })).token;

  beforeAll(async () => {
    receiver = await startN8nStandIn(({ path, report: link }) => {
      if (!link) return;
      if (path.startsWith('/sometimes')) {
        sometimesCalls += 1;
        if (sometimesCalls > 3 && sometimesCalls % 2 === 0) return;
      }
      const report = !path.startsWith('/ko')
        ? { status: 'success', summary: '3 e-mails classés, 2 pièces renommées', items: 5 }
        : { status: 'failure', summary: 'Classement interrompu', error: 'Gmail : quota dépassé' };
      void fetch(link.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...report, runId: link.runId }),
      });
    });
    receiverUrl = receiver.url;

    adminToken = await tokenOf(inject('adminLicenseKey'));
    const lawyerToken = await tokenOf(inject('lawyerLicenseKey'));
    const { profile } = await api<{ profile: { id: string; email: string } | null }>(
      'GET',
      '/api/me',
      lawyerToken,
    );
    if (!profile) throw new Error("L'avocat de démonstration n'a pas de profil");
    lawyerId = profile.id;
    for (const [name, path] of [
      [reporting, '/ok'],
      [failing, '/ko'],
      [sometimes, '/sometimes'],
    ] as const) {
      const created = await api<{ id: string }>('POST', '/api/workflows', adminToken, {
        name,
        description: 'Classe les e-mails entrants',
        webhookUrl: `${receiverUrl}${path}`,
        lawyerEmail: profile.email,
        type: 'document_classification',
      });
      await api('PUT', `/api/workflows/${created.id}`, adminToken, { cronEnabled: true, cronInterval: 1 });
    }

    browser = await launchChromium();
    lawyer = await (await newContext(browser, baseUrl)).newPage();
    const lawyerLogin = new LoginPage(lawyer);
    await lawyerLogin.open();
    await lawyerLogin.signIn(inject('lawyerLicenseKey'));
    await lawyer.waitForURL('**/lawyer/welcome');
    admin = await (await newContext(browser, baseUrl)).newPage();
    const adminLogin = new LoginPage(admin);
    await adminLogin.open();
    await adminLogin.signIn(inject('adminLicenseKey'));
    await admin.waitForURL('**/admin/workflows');
  });
  afterAll(async () => {
    await browser?.close();
    await receiver.close();
  });

  /** Opens the history of an automation from the lawyer's list and waits for a text in it. */
  async function historyShowing(name: string, text: string, timeout = 240_000) {
    await lawyer.goto('/lawyer/workflows');
    await lawyer.getByRole('button', { name: `Historique ${name}` }).click();
    const dialog = lawyer.getByRole('dialog');
    await expect
      .poll(
        async () => {
          await dialog.getByRole('button', { name: "Actualiser l'historique" }).click();
          return dialog.getByText(text).count();
        },
        { timeout, interval: 5_000 },
      )
      .toBeGreaterThan(0);
    return dialog;
  }

  it("shows each run's report beside its delivery, and the health counts the reported failure", async () => {
    const failed = await historyShowing(failing, 'Échec signalé par le workflow : Gmail : quota dépassé');
    await failed.getByText('Réception OK, traitement en échec', { exact: true }).waitFor();
    await screenshot(lawyer, 'reports/history-failure-reported');
    await failed.getByRole('button', { name: 'Fermer' }).first().click();

    const done = await historyShowing(reporting, 'Terminé : 3 e-mails classés, 2 pièces renommées');
    expect(await seriousAccessibilityViolations(lawyer)).toEqual([]);
    await screenshot(lawyer, 'reports/history-success-reported');

    const replay = done.getByRole('button', { name: /^Rejouer l'exécution du/ }).first();
    await replay.scrollIntoViewIfNeeded();
    await screenshot(lawyer, 'reports/history-replay-button');
    await replay.click();
    await lawyer.getByText('Exécution rejouée').first().waitFor();
    // The replay is queued like any run and waits its turn among the firm's calls (five at once,
    // the other suites' automations of this firm included): a bound, not a delivery budget.
    await expect
      .poll(
        async () => {
          await done.getByRole('button', { name: "Actualiser l'historique" }).click();
          return done.getByText('Rejeu', { exact: true }).count();
        },
        { timeout: 120_000, interval: 2_000 },
      )
      .toBeGreaterThan(0);
    await screenshot(lawyer, 'reports/history-replayed');
    // The action column at phone width: the table becomes cards, 'Rejouer' one of their sections.
    await lawyer.setViewportSize({ width: 390, height: 844 });
    // The table's button is replaced by the card's once React redraws: found before, it is gone
    // by the time it would scroll.
    await done.getByRole('table').waitFor({ state: 'detached' });
    const replayOnPhone = done.getByRole('button', { name: /^Rejouer l'exécution du/ }).first();
    await replayOnPhone.scrollIntoViewIfNeeded();
    await screenshot(lawyer, 'reports/history-replayed-390');
    await lawyer.setViewportSize({ width: 1280, height: 900 });
  }, 420_000);

  it('the lawyer exports his data and downloads a ZIP the standard unzip opens', async () => {
    await lawyer.goto('/lawyer/settings');
    await lawyer.getByRole('button', { name: 'Exporter mes données' }).click();
    const download = lawyer.getByRole('link', { name: /Télécharger l’archive/ });
    await download.waitFor({ timeout: 120_000 });
    await screenshot(lawyer, 'reports/export-ready');

    const [file] = await Promise.all([lawyer.waitForEvent('download'), download.click()]);
    const path = join(mkdtempSync(join(tmpdir(), 'export-')), 'export.zip');
    await file.saveAs(path);
    const names = execFileSync('unzip', ['-Z1', path]).toString().split('\n').filter(Boolean);
    expect(names).toContain('README.txt');
    expect(names.some((name) => name.endsWith('.csv'))).toBe(true);
    execFileSync('unzip', ['-tq', path]);
  }, 180_000);

  it("the admin exports a firm's data from the lawyer's details", async () => {
    await admin.goto('/admin/lawyers');
    await admin
      .getByRole('button', { name: /^Détails de Camille Martin/ })
      .first()
      .click();
    const dialog = admin.getByRole('dialog');
    const asked = new Date().toISOString();
    const start = dialog.getByRole('button', { name: 'Exporter les données' });
    await start.click();
    // The lawyer's own export may show already: wait for the one the admin asked for.
    await expect
      .poll(
        async () => {
          const current = await api<{ export: { status: string; requestedAt: string } | null }>(
            'GET',
            `/api/data-exports/current?lawyerId=${lawyerId}`,
            adminToken,
          );
          return current.export && current.export.requestedAt >= asked ? current.export.status : 'none';
        },
        { timeout: 120_000, interval: 2_000 },
      )
      .toBe('ready');
    await expect.poll(() => start.isEnabled(), { timeout: 30_000 }).toBe(true);
    await dialog.getByRole('link', { name: /Télécharger l’archive/ }).waitFor({ timeout: 30_000 });
    await screenshot(admin, 'reports/export-admin-ready');
  }, 180_000);

  it("says 'Sans compte rendu' when a workflow that usually reports has not within its expected time", async () => {
    await historyShowing(sometimes, 'Sans compte rendu', 540_000);
    await screenshot(lawyer, 'reports/history-no-report');
  }, 600_000);
});
