import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { launchChromium, screenshot } from './support/browser';
import { LoginPage } from './support/login-page';
import { startN8nStandIn } from './support/n8n-stand-in';

/** A phone: the spec's pages must work at 390 px wide (spec §9 mobile breakpoint 768 px). */
const PHONE = { width: 390, height: 844 };

/**
 * The page's actions (buttons and links a user can press) that cannot be brought into the
 * viewport: each is scrolled to, then must lie within the screen's width and height.
 */
async function unreachableActions(page: Page): Promise<string[]> {
  const actions = page.locator('header a[href], header button, main a[href], main button');
  const out: string[] = [];
  for (const action of await actions.all()) {
    if (!(await action.isVisible())) continue;
    await action.scrollIntoViewIfNeeded();
    const box = await action.boundingBox();
    const name =
      (await action.getAttribute('aria-label')) ?? ((await action.textContent()) ?? '').trim().slice(0, 40);
    if (
      !box ||
      box.x < 0 ||
      box.x + box.width > PHONE.width + 0.5 ||
      box.y < 0 ||
      box.y + box.height > PHONE.height + 0.5
    ) {
      out.push(name || '(sans nom)');
    }
  }
  return out;
}

/** Whether the document scrolls sideways. */
async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/**
 * The tab labels a user cannot read whole: a label cut inside its own tab, or a tab cut by its
 * tab list while the list shows no scroll button to bring it into view (Cloudscape's Tabs scroll
 * with buttons when their labels overflow).
 */
async function cutTabLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const list of document.querySelectorAll<HTMLElement>('[role="tablist"]')) {
      const listBox = list.getBoundingClientRect();
      const scrollButtons = list.parentElement?.querySelectorAll('button[aria-label]') ?? [];
      const scrollable = [...scrollButtons].some((button) => button.getBoundingClientRect().width > 0);
      for (const tab of list.querySelectorAll<HTMLElement>('[role="tab"]')) {
        const box = tab.getBoundingClientRect();
        const inside = [tab, ...tab.querySelectorAll<HTMLElement>('*')].some(
          (element) => element.scrollWidth > element.clientWidth + 1,
        );
        const clipped = box.left < listBox.left - 1 || box.right > listBox.right + 1;
        if (inside || (clipped && !scrollable)) cut.push((tab.textContent ?? '').trim());
      }
    }
    return cut;
  });
}

/**
 * The cut tab labels once the page's web fonts are in and the tabs drew what they measured (two
 * frames: the size change is seen, then Tabs measures again).
 */
async function cutTabLabelsOnceFontsIn(page: Page): Promise<string[]> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  return cutTabLabels(page);
}

/** The places where a text's lines break inside a word ('…renommée|s…'). */
async function wordsBrokenAcrossLines(text: Locator): Promise<string[]> {
  return text.evaluate((element) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const value = node.textContent ?? '';
      let previousTop: number | null = null;
      for (let index = 0; index < value.length; index++) {
        if (/\s/.test(value.charAt(index))) continue;
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const top = range.getBoundingClientRect().top;
        const newLine = previousTop !== null && top > previousTop + 2;
        if (newLine && !/[\s-]/.test(value.charAt(index - 1)))
          broken.push(`${value.slice(Math.max(0, index - 12), index)}|${value.slice(index, index + 12)}`);
        previousTop = top;
      }
    }
    return broken;
  });
}

describe('mobile pass (390x844): no sideways scroll, every action reachable', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function phonePage(licenseKey: string | null): Promise<Page> {
    const context = await browser.newContext({
      baseURL: baseUrl,
      locale: 'fr-FR',
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    contexts.push(context);
    const page = await context.newPage();
    if (licenseKey) {
      const login = new LoginPage(page);
      await login.open();
      await login.signIn(licenseKey);
      // A sign-in on a loaded machine can take longer than a navigation's default 30 s.
      await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 120_000 });
    }
    return page;
  }

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser.close();
  });

  const pages: [role: 'visitor' | 'admin' | 'lawyer' | 'notary', path: string, heading: string][] = [
    ['visitor', '/', 'Bienvenue sur votre Assistant IA Juridique'],
    ['visitor', '/login', 'Connexion'],
    ['admin', '/admin/workflows', 'Gestion des Automatisations'],
    ['admin', '/admin/lawyers', 'Consultation des Avocats'],
    ['admin', '/admin/notaries', 'Gestion des Notaires'],
    ['admin', '/admin/settings', 'Paramètres Administrateur'],
    ['lawyer', '/lawyer/workflows', 'Mes Automatisations'],
    ['lawyer', '/lawyer/settings', "Gestion de l'abonnement"],
    ['notary', '/notary/workflows', 'Mes Automatisations'],
  ];
  /** Every signed-in page of each role, each waited for by its first heading. */
  const signedInPages: [role: 'admin' | 'lawyer' | 'notary', path: string][] = [
    ['admin', '/admin/workflows'],
    ['admin', '/admin/lawyers'],
    ['admin', '/admin/notaries'],
    ['admin', '/admin/test-promo'],
    ['admin', '/admin/settings'],
    ['admin', '/admin/privacy'],
    ['lawyer', '/lawyer/welcome'],
    ['lawyer', '/lawyer/workflows'],
    ['lawyer', '/lawyer/account-config'],
    ['lawyer', '/lawyer/google'],
    ['lawyer', '/lawyer/google-ecosystem'],
    ['lawyer', '/lawyer/cron'],
    ['lawyer', '/lawyer/settings'],
    ['lawyer', '/lawyer/privacy'],
    ['notary', '/notary/welcome'],
    ['notary', '/notary/settings'],
    ['notary', '/notary/subscription'],
    ['notary', '/notary/workflows'],
    ['notary', '/notary/google'],
    ['notary', '/notary/google-ecosystem'],
    ['notary', '/notary/cron'],
    ['notary', '/notary/privacy'],
  ];
  const keys = {
    visitor: null,
    admin: inject('adminLicenseKey'),
    lawyer: inject('lawyerLicenseKey'),
    notary: inject('notaryLicenseKey'),
  } as const;
  const signedIn = new Map<string, Promise<Page>>();

  it.each(pages)('%s %s', async (role, path, heading) => {
    if (!signedIn.has(role)) signedIn.set(role, phonePage(keys[role]));
    const page = (await signedIn.get(role)) as Page;

    await page.goto(path);
    await page.getByRole('heading', { name: heading, level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `mobile${path === '/' ? '-landing' : path.replaceAll('/', '-')}`);

    expect(await scrollsSideways(page)).toBe(false);
    expect(await unreachableActions(page)).toEqual([]);
  });

  it('gives the notary automations of each category, so that his category tabs show', async () => {
    const page = (await signedIn.get('admin')) ?? (await phonePage(keys.admin));
    signedIn.set('admin', Promise.resolve(page));
    const token = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('session_user') ?? '{}') as { token?: string }).token,
    );
    for (const type of ['client_management', 'document_classification', 'client_reminder']) {
      const created = await page.request.post('/api/workflows', {
        headers: { authorization: `Bearer ${token}` },
        data: {
          name: `Étude Bernard ${type}`,
          description: 'Automatisation de l’étude',
          webhookUrl: 'https://n8n.etude-bernard.example/webhook/etude',
          lawyerEmail: 'louis.bernard.etude@gmail.com',
          type,
        },
      });
      expect(created.status()).toBe(201);
    }
  });

  // Each page is opened by a browser that holds the web font already (the role's earlier pages).
  it.each(signedInPages)('%s %s at 390 px: no sideways scroll, no tab label cut', async (role, path) => {
    if (!signedIn.has(role)) signedIn.set(role, phonePage(keys[role]));
    const page = (await signedIn.get(role)) as Page;

    await page.goto(path);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    const cut = await cutTabLabelsOnceFontsIn(page);
    await screenshot(page, `ux-8-mobile-390${path.replaceAll('/', '-')}`);

    expect({ path, sideways: await scrollsSideways(page) }).toEqual({ path, sideways: false });
    expect({ path, cut }).toEqual({ path, cut: [] });
  });

  it.each([
    ['admin', '/admin/workflows', 'Dossiers'],
    ['notary', '/notary/workflows', 'Relance Dossier Client'],
  ] as const)(
    '%s %s: every tab label readable on a first visit (font not cached) and on the next one',
    async (role, path, lastTab) => {
      // A new browser context: empty cache, the web font fetched while the page draws.
      const page = await phonePage(keys[role]);
      await page.goto(path);
      const tab = page.getByRole('tab', { name: new RegExp(`^${lastTab}`) });
      await tab.waitFor();
      const firstVisit = await cutTabLabelsOnceFontsIn(page);
      await page.reload();
      await tab.waitFor();
      const cached = await cutTabLabelsOnceFontsIn(page);
      await screenshot(page, `ux-8-mobile-390${path.replaceAll('/', '-')}-tabs`);

      expect({ firstVisit, cached }).toEqual({ firstVisit: [], cached: [] });
      // The last tab is reached: pressed (after its scroll button when the labels overflow), it opens.
      const next = page.getByRole('button', { name: 'Faire défiler vers la droite' });
      if (await next.isVisible()) await next.click();
      await tab.click();
      expect(await tab.getAttribute('aria-selected')).toBe('true');
    },
  );

  it('shows the licence key on one line on the subscription page', async () => {
    const page = (await signedIn.get('lawyer')) ?? (await phonePage(keys.lawyer));
    signedIn.set('lawyer', Promise.resolve(page));
    await page.goto('/lawyer/settings');
    const key = page.getByText(/^NOTARY-[A-Z0-9]{8}$/).first();
    await key.waitFor();
    // Its height against its line's: a key broken at its hyphen is two lines high.
    const lines = await key.evaluate((element) =>
      Math.round(
        element.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(element).lineHeight),
      ),
    );
    await screenshot(page, 'ux-8-mobile-390-subscription-licence-key');

    expect(lines).toBe(1);
  });

  it('shows the notaries, the audit trail and the automations in failure as cards, e-mails whole', async () => {
    const page = (await signedIn.get('admin')) ?? (await phonePage(keys.admin));
    await page.goto('/admin/notaries');
    const email = page.getByText('louis.bernard.etude@gmail.com').first();
    await email.waitFor();
    // No table under Cloudscape's 688 px: each notary is a card, his e-mail wrapped, not cut.
    expect(await page.locator('main table').count()).toBe(0);
    const cut = await email.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
    const box = await email.boundingBox();
    expect({ cut, inside: box !== null && box.x >= 0 && box.x + box.width <= PHONE.width }).toEqual({
      cut: false,
      inside: true,
    });
    await screenshot(page, 'ux-8-mobile-390-notaries-cards');

    await page.goto('/admin/settings');
    await page.getByRole('heading', { name: 'Paramètres Administrateur', level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('main table').count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'ux-8-mobile-390-admin-settings-cards');
  });

  it("wraps a completion report's summary between words in the history's cards", async () => {
    const summary =
      '12 e-mails classés dans les dossiers clients, 4 pièces jointes renommées, 2 relances programmées';
    // Answers the call, then reports its run's success to the link it was given.
    const n8n = await startN8nStandIn(({ report }) => {
      if (report)
        void fetch(report.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'success', summary, items: 18, runId: report.runId }),
        });
    });
    try {
      const page = (await signedIn.get('admin')) ?? (await phonePage(keys.admin));
      signedIn.set('admin', Promise.resolve(page));
      const token = await page.evaluate(
        () => (JSON.parse(localStorage.getItem('session_user') ?? '{}') as { token?: string }).token,
      );
      const name = `Classement rapporté ${Date.now()}`;
      const created = await page.request.post('/api/workflows', {
        headers: { authorization: `Bearer ${token}` },
        data: {
          name,
          description: 'Classe les e-mails entrants',
          webhookUrl: `${n8n.url}/webhook`,
          lawyerEmail: 'louis.bernard.etude@gmail.com',
          type: 'document_classification',
        },
      });
      expect(created.status()).toBe(201);

      await page.goto(`/admin/workflows?recherche=${encodeURIComponent(name)}`);
      await page.getByRole('button', { name: `Historique ${name}` }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Tester la connexion' }).click();
      const report = dialog.getByText(`Terminé : ${summary}`);
      await report.waitFor();
      await report.scrollIntoViewIfNeeded();
      await screenshot(page, 'mobile-390-history-report');

      expect(await wordsBrokenAcrossLines(report)).toEqual([]);
    } finally {
      await n8n.close();
    }
  });

  it("keeps 'Se connecter' and the product name in the landing page's bar", async () => {
    const page = await phonePage(null);
    await page.goto('/');
    const bar = page.locator('header').first();

    // Waited for (30 s), not polled for a second: the landing page's code may still be arriving on a
    // loaded machine.
    await bar.getByText('Assistant IA Juridique').waitFor({ state: 'visible' });
    await bar.getByRole('link', { name: 'Se connecter' }).waitFor({ state: 'visible' });
  });

  it("fits 'Gérer mon abonnement' of /login (a firm that cannot sign in) on the phone", async () => {
    const page = await phonePage(null);
    await page.goto('/login');
    // Known issue (closing note): a press while the application takes the pre-rendered card over
    // can be lost; the form is tested once it has.
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Gérer mon abonnement' }).click();
    await page.getByLabel('Adresse e-mail de facturation').waitFor();
    await screenshot(page, 'mobile-login-portal-link');

    expect(await scrollsSideways(page)).toBe(false);
    expect(await unreachableActions(page)).toEqual([]);
  });

  it("fits the automation dialog, with its 'Catégorie' and 'Étiquettes' fields, on the phone", async () => {
    const page = (await signedIn.get('admin')) ?? (await phonePage(keys.admin));
    await page.goto('/admin/workflows');
    await page.getByRole('button', { name: 'Nouvelle Automatisation' }).first().click();
    const dialog = page.getByRole('dialog');
    const tags = dialog.getByLabel('Étiquettes (facultatif)');
    await tags.scrollIntoViewIfNeeded();
    await screenshot(page, 'mobile-automation-dialog');

    const box = await tags.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    await dialog.getByRole('button', { name: 'Créer' }).scrollIntoViewIfNeeded();
    const create = await dialog.getByRole('button', { name: 'Créer' }).boundingBox();
    expect(create && create.x + create.width <= PHONE.width && create.y + create.height <= PHONE.height).toBe(
      true,
    );
    expect(await scrollsSideways(page)).toBe(false);
  });

  it('shows the Actions of /admin/notaries on screen, without sideways scrolling', async () => {
    const page = (await signedIn.get('admin')) ?? (await phonePage(keys.admin));
    await page.goto('/admin/notaries');
    const details = page.getByRole('button', { name: /^Détails de / }).first();
    await details.waitFor();

    const box = await details.boundingBox();
    expect(box && box.x + box.width <= PHONE.width).toBe(true);
  });
});
