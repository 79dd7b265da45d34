import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { launchChromium, newContext, screenshot, seriousAccessibilityViolations } from './support/browser';
import { LoginPage } from './support/login-page';

describe('walking skeleton in Chromium against the local runtime', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser.close();
  });

  async function freshPage() {
    const context = await newContext(browser, baseUrl);
    return context.newPage();
  }

  it('serves the landing page', async () => {
    const page = await freshPage();
    await page.goto('/');
    await page.locator('text=Se connecter >> visible=true').first().waitFor();
    await screenshot(page, 'landing');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('signs the admin in and lands on /admin/workflows, then signs out to /login', async () => {
    const page = await freshPage();
    const login = new LoginPage(page);
    await login.open();
    await screenshot(page, 'login');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await login.signIn(inject('adminLicenseKey'));
    await page.waitForURL('**/admin/workflows');
    await page.getByText('Connecté en tant que Administrateur').waitFor();
    await screenshot(page, 'admin-workflows');
    await page.getByRole('button', { name: 'Déconnexion' }).first().click();
    await page.waitForURL('**/login');
    await page.getByText('Déconnecté avec succès').waitFor();
    await screenshot(page, 'signed-out');
    await page.context().close();
  });

  it('signs the demo lawyer in and lands on /lawyer/welcome', async () => {
    const page = await freshPage();
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(inject('lawyerLicenseKey'));
    await page.waitForURL('**/lawyer/welcome');
    await page.getByText('Connecté en tant que Camille Martin').waitFor();
    await screenshot(page, 'lawyer-welcome');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("shows 'Clé de licence invalide' for a wrong key", async () => {
    const page = await freshPage();
    const login = new LoginPage(page);
    await login.open();
    await login.signIn('NOTARY-WRONGKEY');
    await page.getByText('Clé de licence invalide').first().waitFor();
    expect(page.url()).toContain('/login');
    await screenshot(page, 'login-invalid-key');
    await page.context().close();
  });

  it('shows the 404 page for an unknown path of a signed-in user', async () => {
    const page = await freshPage();
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(inject('adminLicenseKey'));
    await page.waitForURL('**/admin/workflows');
    await page.goto('/chemin/inconnu');
    await page.getByText('Page non trouvée').waitFor();
    await screenshot(page, 'not-found');
    await page.context().close();
  });
});
