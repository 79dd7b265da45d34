import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { launchChromium, newContext, screenshot, seriousAccessibilityViolations } from './support/browser';
import { LoginPage } from './support/login-page';

/**
 * Issue 4's "done when" in Chromium against the local runtime: an automation pointing at the demo
 * receiver (the default address locally), scheduling on, the admin's 'Déclencher Maintenant'
 * reports the counts, the call arrives signed and shows in the history; 'Exécuter' runs it by hand.
 */
describe('scheduling and webhook delivery', () => {
  const baseUrl = inject('baseUrl');
  const automation = 'Relance planifiée';
  let browser: Browser;
  let admin: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    admin = await (await newContext(browser, baseUrl)).newPage();
    const login = new LoginPage(admin);
    await login.open();
    await login.signIn(inject('adminLicenseKey'));
    await admin.waitForURL('**/admin/workflows');
  });
  afterAll(async () => {
    await browser.close();
  });

  it('creates an automation on the demo receiver and turns its scheduling on', async () => {
    await admin.getByRole('button', { name: 'Nouvelle Automatisation' }).first().click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Nom', { exact: true }).fill(automation);
    await dialog.getByLabel('Client (avocat)').click();
    await admin.getByRole('option', { name: /Camille Martin/ }).click();
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await admin.getByText('Automatisation créée', { exact: true }).first().waitFor();
    await admin.getByRole('button', { name: `Actions de ${automation}` }).click();
    await admin.getByRole('menuitem', { name: 'Planifier' }).click();
    await admin.getByText('Planification activée avec succès').first().waitFor();
  });

  it("runs it from 'Déclencher Maintenant' (forced) and reports the counts", async () => {
    await admin.goto('/admin/settings');
    await admin.getByRole('heading', { name: 'Paramètres Administrateur', level: 1 }).waitFor();
    await admin.getByLabel('Exécution forcée').check();
    // A forced run leaves a workflow claimed within the last minute (its run is already queued), and
    // says so. Scheduled a moment ago, the automation is due at once, so the runtime's minute tick
    // may claim it just before the click (two runs of three on 2026-11-25), and on a two-minute
    // interval the next tick claims its next slot a minute ahead: it can stay claimed for two
    // minutes. So the admin runs it again until a run queues it, reading each run's own reply (the
    // summary on the page keeps the previous run's until the new one lands). Other files'
    // automations may be among those queued already.
    const alreadyQueued = " \\(\\d+ déjà en file depuis moins d'une minute\\)";
    const queuedSummary = new RegExp(
      `^Exécution forcée: [1-9]\\d* mises? en file sur [1-9]\\d* workflows? vérifiés?(${alreadyQueued})?$`,
    );
    const run = admin.getByRole('button', { name: 'Déclencher Maintenant' });
    // A claim holds two minutes: 20 runs 10 s apart outlast it.
    for (let runs = 1; ; runs++) {
      const [reply] = await Promise.all([
        admin.waitForResponse(
          (response) =>
            response.url().endsWith('/api/workflow-scheduler') && response.request().method() === 'POST',
        ),
        run.click(),
      ]);
      const { message } = (await reply.json()) as { message: string };
      if (queuedSummary.test(message)) break;
      // Without the count only when the tick claimed it between this run's read and its claim.
      expect(message).toMatch(
        new RegExp(`^Exécution forcée: 0 mise en file sur \\d+ workflows? vérifiés?(${alreadyQueued})?$`),
      );
      expect(runs, 'runs without one that queued it').toBeLessThan(20);
      await admin.waitForTimeout(10_000);
    }
    await admin.getByText(queuedSummary).first().waitFor();
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    await screenshot(admin, 'admin-settings');
  }, 240_000);

  it('shows the signed call in the history and on the demo receiver', async () => {
    await admin.goto('/admin/workflows');
    await admin.getByRole('button', { name: `Historique ${automation}` }).click();
    const history = admin.getByRole('dialog');
    await expect
      .poll(
        async () => {
          await history.getByRole('button', { name: "Actualiser l'historique" }).click();
          return history.getByText('Réussi').count();
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    await history.getByText('Forcé').first().waitFor();
    await screenshot(admin, 'execution-history');
    await history.getByRole('button', { name: 'Fermer' }).last().click();

    const receiver = await (await newContext(browser, baseUrl)).newPage();
    await receiver.goto(new URL(baseUrl).origin.replace(/:(\d+)$/, (_, port) => `:${Number(port) + 1}`));
    await receiver.getByText('signature valide').first().waitFor();
    await screenshot(receiver, 'demo-receiver');
    await receiver.context().close();
  });

  it("runs it by hand with 'Exécuter', then locks the button", async () => {
    // On a page of its own: a test above that failed may have left a dialog open.
    await admin.goto('/admin/workflows');
    const run = admin.getByRole('button', { name: `Exécuter ${automation}` });
    await run.click();
    await admin.getByText('Workflow exécuté avec succès').first().waitFor();
    await expect.poll(() => run.isDisabled(), { timeout: 30_000 }).toBe(true);
  });
});
