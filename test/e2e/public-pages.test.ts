import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { launchChromium, screenshot } from './support/browser';
import { LoginPage } from './support/login-page';

/** What each public page says before any of the application's code has run. */
const PAGES = [
  {
    path: '/',
    text: 'Bienvenue sur votre Assistant IA Juridique',
    title: 'Bienvenue sur votre Assistant IA Juridique · Assistant IA Juridique',
  },
  {
    path: '/discover',
    text: "c'est quoi ?",
    title: "Assistant IA Juridique, c'est quoi ? · Assistant IA Juridique",
  },
  {
    path: '/privacy',
    text: 'Politique de Confidentialité',
    title: 'Politique de Confidentialité · Assistant IA Juridique',
  },
  {
    path: '/payment-success',
    text: 'Paiement réussi !',
    title: 'Paiement réussi ! · Assistant IA Juridique',
  },
] as const;

/**
 * What a visitor's first key press does on a public page (as a press or a focus would): the page
 * asks for the application's code, which takes it over.
 */
async function firstKeyPress(page: Page): Promise<void> {
  await page.keyboard.press('Shift');
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

/** Resolves once the page is painted in its fonts: when the start script of a page asks for its entry. */
const painted = (page: Page) =>
  page.evaluate(async () => {
    const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    await afterPaint();
    await document.fonts.ready;
    await afterPaint();
    await afterPaint();
  });

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

  it.each(PAGES)(
    'shows the text and the tab title of $path with no JavaScript at all',
    async ({ path, text, title }) => {
      const page = await pageAt(1440, false);
      await page.goto(path);

      await page.getByText(text).first().waitFor();
      expect(await page.getByText('Chargement…').count()).toBe(0);
      expect(await page.title()).toBe(title);
      await page.context().close();
    },
  );

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
      await screenshot(page, `ux-2-privacy-legal-details-${width}`);
      await page.context().close();
    }
  });

  it.each([
    ['/', 'ux-noscript-390'],
    ['/lawyer/workflows', 'ux-noscript-app-390'],
  ])(
    "says 'Cette application nécessite JavaScript.' on %s without JavaScript, in the dark theme, centred",
    async (path, name) => {
      const page = await pageAt(390, false);
      await page.goto(path);

      // Playwright's text search skips <noscript>, so the line is found by where it stands.
      const notice = page.locator('noscript > p');
      await notice.waitFor();
      expect(await notice.innerText()).toBe('Cette application nécessite JavaScript.');
      const look = await notice.evaluate((element) => {
        const style = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        return {
          color: style.color,
          background: getComputedStyle(document.body).backgroundColor,
          font: style.fontFamily,
          align: style.textAlign,
          centre: Math.round(box.left + box.width / 2),
          inView: box.top >= 0 && box.bottom <= window.innerHeight,
        };
      });
      await screenshot(page, name);

      // Light text on the dark page, the theme's font, in the middle of a phone's width, unscrolled.
      expect(look).toMatchObject({
        color: 'rgb(233, 235, 237)',
        background: 'rgb(15, 20, 26)',
        align: 'center',
        centre: 195,
        inView: true,
      });
      expect(look.font).toMatch(/^"Open Sans"/);
      await page.context().close();
    },
  );

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
      await firstKeyPress(page);
      await screenshot(page, `ux-9${path === '/' ? '-landing' : path.replace('/', '-')}-390`);

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
        await screenshot(
          htmlAlone,
          `ux-9${path === '/' ? '-landing' : path.replace('/', '-')}-painted-${width}`,
        );
        await htmlAlone.context().close();

        const page = await pageAt(width, true);
        await page.goto(path);
        await firstKeyPress(page);
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
    await firstKeyPress(page);
    await screenshot(page, 'ux-9-landing-1440');

    await page.getByRole('link', { name: 'Commencer maintenant' }).first().click();

    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Obtenir votre licence' }).waitFor();
    await page.context().close();
  });

  it.each(PAGES)(
    "runs none of the application's code on $path while a visitor who is not signed in reads it",
    async ({ path, text }) => {
      const page = await pageAt(390, true);
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(path);
      await page.getByText(text).first().waitFor();
      await painted(page);

      expect(scripts).toEqual(['/start-after-paint.js']);
      expect(await page.locator('html[data-hydrated]').count()).toBe(0);
      // Its links are links: the next page is pre-rendered too.
      await page
        .getByRole('link', { name: /Se connecter/ })
        .first()
        .click();
      await page.waitForURL('**/login');
      await page.getByRole('button', { name: 'Obtenir votre licence' }).waitFor();
      await page.context().close();
    },
  );

  it('takes /login, a form, over as soon as it is painted, untouched', async () => {
    const page = await pageAt(390, true);
    await page.goto('/login');

    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await page.context().close();
  });

  it('takes a signed-in visitor from the landing page to his space at once, and names it in the bar of /discover', async () => {
    const page = await pageAt(1440, true);
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(inject('lawyerLicenseKey'));
    await page.waitForURL('**/lawyer/welcome');

    await page.goto('/');
    await page.waitForURL('**/lawyer/welcome');
    await page.goto('/discover');
    await page.getByRole('link', { name: 'Mon espace' }).waitFor();
    await page.context().close();
  });
});
