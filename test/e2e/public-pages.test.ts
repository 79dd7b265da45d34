import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { launchChromium, screenshot } from './support/browser';

/** What each public page says before any of the application's code has run. */
const PAGES = [
  { path: '/', text: 'Bienvenue sur votre Assistant IA Juridique' },
  { path: '/discover', text: "c'est quoi ?" },
  { path: '/privacy', text: 'Politique de Confidentialité' },
  { path: '/payment-success', text: 'Paiement réussi !' },
] as const;

/**
 * The public pages a prospect opens first are pre-rendered like /login: their text is in the HTML
 * (a browser without JavaScript shows it), and the application then takes the page over as it is.
 */
describe('public pages painted before the application runs', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser.close();
  });

  /** A page at this width; without JavaScript, what the HTML alone paints. */
  async function pageAt(width: number, javaScriptEnabled: boolean): Promise<Page> {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width, height: width === 390 ? 844 : 900 },
      javaScriptEnabled,
      locale: 'fr-FR',
    });
    return context.newPage();
  }

  it.each(PAGES)('shows the text of $path with no JavaScript at all', async ({ path, text }) => {
    const page = await pageAt(1440, false);
    await page.goto(path);

    await page.getByText(text).first().waitFor();
    expect(await page.getByText('Chargement…').count()).toBe(0);
    await page.context().close();
  });

  it("shows the publisher's legal details on /privacy, marked as examples locally", async () => {
    for (const width of [1440, 390]) {
      const page = await pageAt(width, false);
      await page.goto('/privacy');

      await page.getByText('Directeur de la publication').waitFor();
      await page
        .getByText('Exemple — Lexflow, Exemple — SAS au capital de 1 000 €, Exemple — RCS Paris 000 000 000')
        .waitFor();
      await page.getByText('Exemple — Prénom Nom, président').waitFor();
      expect(await page.getByText('{{').count()).toBe(0);
      await screenshot(page, `ux-billing-privacy-legal-details-${width}`);
      await page.context().close();
    }
  });

  it.each(PAGES)(
    'takes $path over without a hydration error, and its links then work',
    async ({ path, text }) => {
      const page = await pageAt(390, true);
      const errors: string[] = [];
      page.on('console', (message: ConsoleMessage) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(path);
      await page.getByText(text).first().waitFor();
      await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await screenshot(page, `ux-billing-public${path === '/' ? '-landing' : path.replace('/', '-')}-390`);

      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  /** Where the page's title and first paragraph stand, and the stylesheets it has, once its fonts are in. */
  async function layoutOf(page: Page) {
    return page.evaluate(async () => {
      await document.fonts.ready;
      const place = (element: Element | null) => {
        const rect = element?.getBoundingClientRect();
        return rect ? [rect.left, rect.top, rect.width, rect.height].map(Math.round) : null;
      };
      return {
        title: place(document.querySelector('#root h1')),
        paragraph: place(document.querySelector('#root main p')),
        stylesheets: [...document.querySelectorAll('link[rel="stylesheet"]')].map((link) =>
          link.getAttribute('href'),
        ),
      };
    });
  }

  it.each(PAGES)(
    'takes $path over where its HTML painted it: the same stylesheets, the text in the same place',
    async ({ path }) => {
      for (const width of [390, 1440]) {
        // The HTML alone, as painted before the application's code runs: its start script is not
        // served (without JavaScript at all, the <noscript> line would move the page down).
        const htmlAlone = await pageAt(width, true);
        await htmlAlone.route('**/start-after-paint.js', (route) => route.abort());
        await htmlAlone.goto(path);
        const painted = await layoutOf(htmlAlone);
        await htmlAlone.context().close();

        const page = await pageAt(width, true);
        await page.goto(path);
        await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
        const takenOver = await layoutOf(page);
        await page.context().close();

        expect(painted.title).not.toBeNull();
        expect(painted.paragraph).not.toBeNull();
        expect(takenOver).toEqual(painted);
      }
    },
  );

  it("follows the landing page's 'Commencer maintenant' to /login once taken over", async () => {
    const page = await pageAt(1440, true);
    await page.goto('/');
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await screenshot(page, 'ux-billing-public-landing-1440');

    await page.getByRole('link', { name: 'Commencer maintenant' }).first().click();

    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Obtenir votre licence' }).waitFor();
    await page.context().close();
  });
});
