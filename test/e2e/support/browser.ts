import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium; browser downloads are not possible on our machines. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const SCREENSHOT_DIRECTORY = join(process.cwd(), 'test-results', 'screenshots');

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/** A fresh browser context (own local storage and cookies) in French, desktop size by default. */
export async function newContext(browser: Browser, baseURL: string, width = 1280): Promise<BrowserContext> {
  return browser.newContext({ baseURL, locale: 'fr-FR', viewport: { width, height: 900 } });
}

/**
 * Saves a full-page screenshot under test-results/screenshots; `fullPage: false` keeps the window
 * as it is (a dialog scrolled inside: a full-page capture lays the page out again and loses it).
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  mkdirSync(SCREENSHOT_DIRECTORY, { recursive: true });
  const path = join(SCREENSHOT_DIRECTORY, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/**
 * Screenshots of a changed screen as a desk (1440 px) and a phone (390 px) show it, named
 * `ux-<name>-<width>`, each once the page has laid itself out at that width (charts measure their
 * container a frame later); the page is left at the size it had.
 */
export async function screenshotsAt(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // From the top: a full-page capture leaves the fixed bar where the window was scrolled to.
    await page.evaluate(async () => {
      window.scrollTo(0, 0);
      for (let frame = 0; frame < 3; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    });
    await page.waitForFunction(() =>
      document.getAnimations().every((animation) => animation.playState !== 'running'),
    );
    await screenshot(page, `ux-${name}-${width}`);
  }
  if (viewport) await page.setViewportSize(viewport);
}

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical accessibility violations axe finds on the current page. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  // Colours half-way through a transition (a toast sliding in) are not the page's colours.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
  // Evaluated through the DevTools protocol, so the page's strict CSP does not block it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: () => Promise<{ violations: { id: string; impact: string; help: string }[] }> };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help}`);
}
