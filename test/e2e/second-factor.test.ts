import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SECOND_FACTOR_TEXT } from '../../web/src/components/second-factor/strings';
import { type StartedRuntime, startRuntime } from './global-setup';
import {
  launchChromium,
  newContext,
  screenshot,
  screenshotsAt,
  seriousAccessibilityViolations,
} from './support/browser';
import { LoginPage } from './support/login-page';

/**
 * The second factor in Chromium, against a runtime of its own started as `npm start` starts it:
 * admin licences must pass a second factor (the shared runtime of the other suites lifts that).
 */
describe('second factor in Chromium', () => {
  let runtime: StartedRuntime;
  let browser: Browser;

  beforeAll(async () => {
    runtime = await startRuntime();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await runtime?.stop();
  });

  async function freshPage(): Promise<Page> {
    const context = await newContext(browser, runtime.baseUrl);
    return context.newPage();
  }

  async function signOut(page: Page) {
    await page.getByRole('button', { name: 'Déconnexion' }).first().click();
    await page.waitForURL('**/login');
  }

  it('says on the start banner that admins need a second factor', () => {
    expect(runtime.output()).toContain('Vérification en deux étapes exigée pour les administrateurs');
    expect(runtime.output()).not.toContain('REQUIRE_SECOND_FACTOR=false');
  });

  it("enrols the admin's passkey at his first sign-in (Chromium's virtual authenticator), then signs in with it", async () => {
    const page = await freshPage();
    // A platform authenticator that says yes by itself, as a fingerprint reader would.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(runtime.keys.admin);

    await page.getByRole('heading', { name: SECOND_FACTOR_TEXT.title }).waitFor();
    await page.getByText(SECOND_FACTOR_TEXT.enrolDescription).waitFor();
    await screenshot(page, 'second-factor-enrolment');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: SECOND_FACTOR_TEXT.registerPasskey }).click();

    const codes = page.getByRole('list', { name: SECOND_FACTOR_TEXT.recoveryTitle }).getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    for (const code of await codes.allTextContents()) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    await screenshot(page, 'second-factor-recovery-codes');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const next = page.getByRole('button', { name: SECOND_FACTOR_TEXT.continue });
    expect(await next.isDisabled()).toBe(true);
    await page.getByText(SECOND_FACTOR_TEXT.savedCodes).click();
    await next.click();
    await page.waitForURL('**/admin/workflows');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.rpId).toBe('localhost');

    await signOut(page);
    await login.signIn(runtime.keys.admin);
    await page.getByRole('heading', { name: SECOND_FACTOR_TEXT.title }).waitFor();
    await screenshot(page, 'second-factor-verify-passkey');
    await page.getByRole('button', { name: SECOND_FACTOR_TEXT.usePasskey }).click();
    await page.waitForURL('**/admin/workflows');
    await page.getByText('Connecté en tant que Administrateur').waitFor();

    // Admin settings show the factor, and the passkey's signature counter moved on.
    await page.goto('/admin/settings');
    await page.getByRole('heading', { name: SECOND_FACTOR_TEXT.settingsTitle }).waitFor();
    await page.getByText(SECOND_FACTOR_TEXT.passkeysCount(1)).waitFor();
    await screenshot(page, 'second-factor-admin-settings');
    // This runtime is started without a deployment alert address: the page asks for one.
    await page.getByText(/^Aucune adresse d’alerte : les alertes destinées à l’administrateur/).waitFor();
    await screenshotsAt(page, '3-admin-alert-address-missing');
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]?.signCount).toBeGreaterThan(credentials[0]?.signCount ?? 0);
    await page.context().close();
  });

  it('lets a lawyer enrol an authenticator app from his settings, then asks for its code at sign-in', async () => {
    const page = await freshPage();
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(runtime.keys.lawyer);
    // Not required of a firm's licence until it enrols one.
    await page.waitForURL('**/lawyer/welcome');

    await page.goto('/lawyer/settings');
    await page.getByRole('button', { name: SECOND_FACTOR_TEXT.setUpTotp }).click();
    await page.getByRole('button', { name: SECOND_FACTOR_TEXT.showQrCode }).click();
    await page.getByRole('img', { name: SECOND_FACTOR_TEXT.qrCodeAlt }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'second-factor-totp-enrolment');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(SECOND_FACTOR_TEXT.codeLabel).fill(totp.generate());
    await dialog.getByRole('button', { name: SECOND_FACTOR_TEXT.confirm }).click();
    await page.getByRole('list', { name: SECOND_FACTOR_TEXT.recoveryTitle }).waitFor();
    await page.getByText(SECOND_FACTOR_TEXT.savedCodes).click();
    await page.getByRole('button', { name: SECOND_FACTOR_TEXT.continue }).click();
    await page.getByText(SECOND_FACTOR_TEXT.enabled, { exact: true }).waitFor();

    await signOut(page);
    await login.signIn(runtime.keys.lawyer);
    await page.getByRole('heading', { name: SECOND_FACTOR_TEXT.title }).waitFor();
    const code = page.getByLabel(SECOND_FACTOR_TEXT.codeLabel);
    await code.fill(totp.generate() === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: SECOND_FACTOR_TEXT.verify }).click();
    await page.getByText('Code invalide').first().waitFor();
    await screenshot(page, 'second-factor-wrong-code');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // The code of the next time step: the enrolment used the current one, and a replay is refused.
    await code.fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole('button', { name: SECOND_FACTOR_TEXT.verify }).click();
    await page.waitForURL('**/lawyer/welcome');
    await page.context().close();
  });

  it("shows a notary's security settings at 390 px wide", async () => {
    const context = await newContext(browser, runtime.baseUrl, 390);
    const page = await context.newPage();
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(runtime.keys.notary);
    await page.waitForURL('**/notary/welcome');
    await page.goto('/notary/settings');
    await page.getByRole('heading', { name: SECOND_FACTOR_TEXT.settingsTitle }).waitFor();
    await screenshot(page, 'second-factor-notary-settings-mobile');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });
});
