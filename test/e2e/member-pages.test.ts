import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { launchChromium, newContext, screenshot, seriousAccessibilityViolations } from './support/browser';
import { LoginPage } from './support/login-page';

/** Every page of the notary space (spec §2), with the demo notary: rendered, screenshotted, axe-clean. */
describe('notary pages', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await newContext(browser, baseUrl)).newPage();
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(inject('notaryLicenseKey'));
    await page.waitForURL('**/notary/welcome');
  });
  afterAll(async () => {
    await browser.close();
  });

  it.each([
    ['/notary/welcome', 'Bienvenue', 'notary-welcome'],
    ['/notary/settings', 'Paramètres', 'notary-settings'],
    ['/notary/workflows', 'Mes Automatisations', 'notary-workflows'],
    ['/notary/google', 'Configuration Google', 'notary-google'],
    ['/notary/google-ecosystem', 'Écosystème Google', 'notary-google-ecosystem'],
    ['/notary/cron', 'Planification', 'notary-cron'],
  ])('shows %s', async (path, heading, name) => {
    await page.goto(path);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, name);
  });

  it('shows the notary his licence type and profile on the settings page', async () => {
    await page.goto('/notary/settings');
    await page.getByText('Avocat - Accès complet').waitFor();
    await page.getByText('louis.bernard.etude@gmail.com').first().waitFor();
  });
});
