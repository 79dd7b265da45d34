import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import {
  launchChromium,
  newContext,
  screenshot,
  screenshotsAt,
  seriousAccessibilityViolations,
} from './support/browser';
import { LoginPage } from './support/login-page';

/**
 * Issue 3's scenario in Chromium against the local runtime: the admin creates a lawyer, a folder
 * and an automation for him; the lawyer sees it waiting, then active once the admin activates it,
 * and turns scheduling on; deleting the folder keeps the automation; deleting the lawyer revokes
 * his key. Every page on the way is screenshotted and checked with axe.
 */
describe('back office: lawyers, folders and automations', () => {
  const baseUrl = inject('baseUrl');
  const lawyer = { firstName: 'Jeanne', lastName: 'Durand', email: 'jeanne.durand.cabinet@gmail.com' };
  const lawyerName = `${lawyer.firstName} ${lawyer.lastName}`;
  const folderName = 'Succession Durand';
  const automationName = 'Relance Durand';
  /** A signature of several lines, as a lawyer signs (name, firm, address). */
  const signature = 'Maître Jeanne Durand\nAvocate au barreau de Lyon\n12 quai Saint-Antoine, 69002 Lyon';
  let browser: Browser;
  let admin: Page;
  let lawyerPage: Page;
  let lawyerKey = '';

  async function signedIn(licenseKey: string, home: string): Promise<Page> {
    const page = await (await newContext(browser, baseUrl)).newPage();
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(licenseKey);
    await page.waitForURL(`**${home}`);
    return page;
  }

  /** Waits for a toast and checks the page with axe, then saves a screenshot. */
  async function seen(page: Page, toast: string | null, name: string) {
    if (toast) await page.getByText(toast, { exact: true }).first().waitFor();
    expect(await seriousAccessibilityViolations(page), name).toEqual([]);
    await screenshot(page, name);
  }

  async function cardAction(page: Page, workflow: string, action: string) {
    await page
      .getByRole('button', { name: `Actions de ${workflow}` })
      .first()
      .click();
    await page.getByRole('menuitem', { name: action }).click();
  }

  beforeAll(async () => {
    browser = await launchChromium();
    admin = await signedIn(inject('adminLicenseKey'), '/admin/workflows');
  });
  afterAll(async () => {
    await browser.close();
  });

  it('lets the admin create a lawyer, who gets a licence key', async () => {
    await admin.goto('/admin/lawyers');
    await admin.getByRole('heading', { name: 'Consultation des Avocats', level: 1 }).waitFor();
    await admin.getByRole('button', { name: 'Nouvel avocat' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await dialog.getByText('Le prénom doit contenir au moins 2 caractères').waitFor();
    await screenshot(admin, 'admin-lawyer-form-errors');
    await dialog.getByLabel('Prénom').fill(lawyer.firstName);
    await dialog.getByLabel('Nom', { exact: true }).fill(lawyer.lastName);
    await dialog.getByLabel('Email Google').fill(lawyer.email);
    await dialog.getByLabel('Téléphone').fill('0612345678');
    await dialog.getByLabel("Nom de l'étude").fill('Cabinet Durand');
    await dialog.getByLabel('Mot de passe Google (facultatif)').fill('Un-mot-de-passe-fort-2025');
    await dialog.getByLabel('Signature e-mail (facultatif)').fill(signature);
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await seen(admin, `Dossier créé pour ${lawyerName}`, 'admin-lawyers');

    // A search that finds no one says '0 résultat': French takes the singular for zero.
    const search = admin.getByLabel('Rechercher par nom, email ou étude');
    await search.fill('Personne-introuvable');
    await admin.getByText('0 résultat', { exact: true }).first().waitFor();
    await screenshotsAt(admin, '10-zero-result');
    await search.fill('');

    // The card shows the key masked; 'Afficher' reveals it (a sensitive, audited action).
    const card = admin.locator('li', { hasText: lawyer.email });
    await card.getByText(/^NOTARY-••••[A-Z0-9]{4}$/).waitFor();
    await card
      .getByRole('button', { name: 'Afficher la clé de licence (enregistré dans le journal d’audit)' })
      .click();
    lawyerKey = (await card.getByText(/^NOTARY-[A-Z0-9]{8}$/).textContent()) ?? '';
    expect(lawyerKey).toMatch(/^NOTARY-[A-Z0-9]{8}$/);

    await admin.getByRole('button', { name: `Détails de ${lawyerName}` }).click();
    await admin.getByRole('button', { name: 'Afficher les identifiants' }).click();
    await admin.getByText('Un-mot-de-passe-fort-2025').waitFor();
    // The signature shown as written, one line under the other.
    const shown = admin.getByRole('dialog').getByText('Maître Jeanne Durand');
    expect(await shown.innerText()).toBe(signature);
    expect((await shown.boundingBox())?.height).toBeGreaterThan(40);
    await seen(admin, null, 'admin-lawyer-details');
    await screenshotsAt(admin, '10-signature-multiline');
    await admin.getByRole('dialog').getByRole('button', { name: 'Fermer' }).first().click();
  });

  it('lets the admin create a folder and an automation in it for that lawyer', async () => {
    await admin.goto('/admin/workflows');
    await admin.getByRole('tab', { name: 'Dossiers' }).click();
    await admin.getByRole('button', { name: 'Nouveau Dossier' }).click();
    // An empty name is refused, the field named, rather than ignored without a word.
    await admin.getByRole('dialog').getByRole('button', { name: 'Créer' }).click();
    await admin.getByRole('dialog').getByText('Le nom du dossier est requis').waitFor();
    await screenshotsAt(admin, '10-empty-folder-name');
    await admin.getByRole('dialog').getByLabel('Nom du dossier').fill(folderName);
    await admin.getByRole('dialog').getByRole('button', { name: 'Créer' }).click();
    await admin.getByText('Dossier créé', { exact: true }).first().waitFor();

    // 'Ajouter au Dossier' files existing automations; a new one is created from its dialog.
    await admin.getByRole('button', { name: 'Ajouter au Dossier' }).click();
    await admin
      .getByRole('dialog')
      .getByRole('button', { name: 'Nouvelle automatisation dans ce dossier' })
      .click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Nom', { exact: true }).fill(automationName);
    await dialog.getByLabel('Catégorie (facultatif)').fill('Droit de la famille');
    await dialog.getByLabel('Étiquettes (facultatif)').fill('urgent, succession');
    await dialog.getByLabel('Client (avocat)').click();
    await admin.getByRole('option', { name: new RegExp(lawyerName) }).click();
    await dialog.getByRole('button', { name: 'Créer' }).click();
    await seen(admin, 'Automatisation créée', 'admin-folders');
    await expect.poll(() => admin.getByText(automationName).count(), { timeout: 30_000 }).toBeGreaterThan(0);

    // New automations are created active (spec §4): the admin holds it back until the lawyer is ready.
    await admin.getByRole('tab', { name: 'Toutes les Automatisations' }).click();
    await cardAction(admin, automationName, 'Désactiver');
    await seen(admin, 'Automatisation désactivée avec succès', 'admin-workflows-cards');

    // The admin's search finds it by its lawyer's first name and by its category, neither in its name.
    const search = admin.getByRole('searchbox', { name: 'Rechercher une automatisation' });
    for (const [words, name] of [
      ['Jeanne', '6-admin-search-lawyer-name'],
      ['famille', '6-admin-search-category'],
    ] as const) {
      await search.fill(words);
      await expect
        .poll(() => admin.getByRole('button', { name: `Actions de ${automationName}` }).count(), {
          timeout: 30_000,
        })
        .toBe(1);
      await screenshotsAt(admin, name);
    }
    // On a desk, 1280 px (the default) as 1440 px, the search and the four filters share one row:
    // their boxes level, none stretched across a row of its own. On a phone they stack, one a row.
    for (const width of [1280, 1440]) {
      await admin.setViewportSize({ width, height: 900 });
      await expect.poll(async () => rowsOf(await filterBoxes(admin)), { message: `${width} px` }).toBe(1);
      const boxes = await filterBoxes(admin);
      expect(boxes).toHaveLength(5);
      expect(Math.max(...boxes.slice(1).map((select) => select.width))).toBeLessThan(300);
    }
    await admin.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => rowsOf(await filterBoxes(admin))).toBe(5);
    const stacked = await filterBoxes(admin);
    // Each filter as wide as the card, the search's box sharing its row with the count of results.
    for (const select of stacked.slice(1))
      expect(select.width).toBeGreaterThanOrEqual(stacked[0]?.width ?? 0);
    expect(await scrollsSideways(admin)).toBe(false);
    await admin.setViewportSize({ width: 1280, height: 900 });
    await admin.evaluate(() => window.scrollTo(0, 0));
    await screenshot(admin, 'ux-6-admin-filters-1280');
    await screenshotsAt(admin, '6-admin-filters');
    await search.fill('');
  });

  it("shows the lawyer his automation under 'En attente d'activation', then active once the admin activates it", async () => {
    lawyerPage = await signedIn(lawyerKey, '/lawyer/welcome');
    await lawyerPage.getByText(`Connecté en tant que ${lawyerName}`).waitFor();
    await lawyerPage.goto('/lawyer/workflows');
    await lawyerPage.getByRole('heading', { name: "En attente d'activation (1)" }).waitFor();
    await lawyerPage.getByRole('heading', { name: 'Automatisations actives (0)' }).waitFor();
    await seen(lawyerPage, null, 'lawyer-workflows-pending');

    await cardAction(admin, automationName, 'Activer');
    await admin.getByText('Automatisation activée', { exact: true }).first().waitFor();

    await lawyerPage.reload();
    await lawyerPage.getByRole('heading', { name: 'Automatisations actives (1)' }).waitFor();
    await lawyerPage.getByRole('checkbox', { name: 'Planification automatique' }).click();
    await seen(lawyerPage, 'Planification activée avec succès', 'lawyer-workflows-active');

    // His own list has a search too: by a tag, and none found said in words.
    const search = lawyerPage.getByRole('searchbox', { name: 'Rechercher dans mes automatisations' });
    await search.fill('succession');
    await lawyerPage.getByText('1 résultat', { exact: true }).first().waitFor();
    await lawyerPage.getByText(automationName).first().waitFor();
    // The card shows why it was found: its tags and category, as the admin's card does.
    const found = lawyerPage.locator('li', { hasText: automationName });
    await found.getByText('succession', { exact: true }).waitFor();
    await found.getByText('urgent', { exact: true }).waitFor();
    await found.getByText('Droit de la famille', { exact: true }).waitFor();
    await screenshotsAt(lawyerPage, '6-firm-search');
    await search.fill('testament');
    await lawyerPage.getByText('Aucune automatisation ne correspond à votre recherche.').first().waitFor();
    await screenshotsAt(lawyerPage, '6-firm-search-none');
    await search.fill('');
  });

  it('shows the lawyer his account, planning and guide pages', async () => {
    for (const [path, heading, name] of [
      ['/lawyer/account-config', 'Configuration compte', 'lawyer-account-config'],
      ['/lawyer/cron', 'Planification', 'lawyer-cron'],
      ['/lawyer/google-ecosystem', 'Écosystème Google', 'lawyer-google-ecosystem'],
    ] as const) {
      await lawyerPage.goto(path);
      await lawyerPage.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await lawyerPage.waitForLoadState('networkidle');
      await seen(lawyerPage, null, name);
    }
    await lawyerPage.goto('/lawyer/cron');
    await lawyerPage
      .getByText('Planifié')
      .first()
      .waitFor({ state: 'attached' })
      .catch(() => undefined);
    await lawyerPage.getByText(automationName).waitFor();
  });

  it("shows the history's messages whole at 1440 px, wrapped beside the sticky 'Actions' column", async () => {
    // An address where nothing listens: the run's message is the long 'connexion refusée' sentence.
    await admin.goto('/admin/workflows');
    await cardAction(admin, automationName, 'Modifier');
    await admin.getByRole('dialog').getByLabel('URL du webhook').fill('http://127.0.0.1:1/webhook/relance');
    await admin.getByRole('dialog').getByRole('button', { name: 'Enregistrer' }).click();
    await admin.getByText('Automatisation mise à jour', { exact: true }).first().waitFor();
    await lawyerPage.setViewportSize({ width: 1440, height: 900 });
    await lawyerPage.reload();
    await lawyerPage.getByRole('button', { name: `Exécuter ${automationName}` }).click();
    await lawyerPage.getByText("Le serveur n8n n'a pas répondu", { exact: false }).first().waitFor();
    await lawyerPage.getByRole('button', { name: `Historique ${automationName}` }).click();
    const table = lawyerPage.getByRole('dialog').getByRole('table');
    await table.locator('tbody tr').first().waitFor({ timeout: 30_000 });
    const cells = await table.evaluate((element) => {
      const header = [...element.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
      const row = [...(element.querySelector('tbody tr')?.querySelectorAll('td') ?? [])];
      const box = (name: string) =>
        row[header.findIndex((text) => text.startsWith(name))]?.getBoundingClientRect();
      return { message: box('Message'), actions: box('Actions') };
    });
    if (!cells.message || !cells.actions) throw new Error("Pas de colonnes 'Message' et 'Actions'");
    expect(cells.message.right).toBeLessThanOrEqual(cells.actions.left + 1);
    await screenshotsAt(lawyerPage, 'polish-history-message');
    await lawyerPage.getByRole('dialog').getByRole('button', { name: 'Fermer' }).first().click();

    // On a phone the second factor's 'Non (recommandée)' breaks before its parenthesis, never in it.
    await lawyerPage.setViewportSize({ width: 390, height: 844 });
    await lawyerPage.goto('/lawyer/settings');
    const recommended = lawyerPage.getByText('(recommandée)', { exact: true });
    await recommended.waitFor();
    expect(await recommended.evaluate((element) => element.getClientRects().length)).toBe(1);
    await screenshotsAt(lawyerPage, 'polish-second-factor-recommended');
    await lawyerPage.setViewportSize({ width: 1280, height: 900 });
  });

  it('keeps the automation when its folder is deleted', async () => {
    await admin.getByRole('tab', { name: 'Dossiers' }).click();
    await admin.getByRole('button', { name: `Supprimer le dossier ${folderName}` }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Supprimer' }).click();
    await admin.getByText('Dossier supprimé', { exact: true }).first().waitFor();
    await admin.reload();
    await admin.getByText(automationName).first().waitFor();
    await seen(admin, null, 'admin-workflows-after-folder-deletion');
  });

  it('deletes the lawyer and all his data, after which his key no longer signs in', async () => {
    await admin.goto('/admin/notaries');
    await admin.getByRole('heading', { name: 'Gestion des Notaires', level: 1 }).waitFor();
    await admin.getByText(lawyer.email).waitFor();
    await seen(admin, null, 'admin-notaries');

    await admin.goto('/admin/lawyers');
    await admin.getByRole('button', { name: `Supprimer ${lawyerName}` }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Supprimer définitivement' }).click();
    await admin.getByText(`L'avocat ${lawyerName} a été supprimé.`).first().waitFor();
    await admin.goto('/admin/workflows');
    await admin.getByRole('heading', { name: 'Gestion des Automatisations', level: 1 }).waitFor();
    await admin.waitForLoadState('networkidle');
    expect(await admin.getByText(automationName).count()).toBe(0);

    const page = await (await newContext(browser, baseUrl)).newPage();
    const login = new LoginPage(page);
    await login.open();
    await login.signIn(lawyerKey);
    await page.getByText('Clé de licence invalide').first().waitFor();
    expect(page.url()).toContain('/login');
  });
});

/** The boxes of the admin's automation search and of its four filters, in the order they are read. */
function filterBoxes(page: Page): Promise<{ top: number; width: number }[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll(
        'input[type="search"], button[aria-haspopup="listbox"], button[aria-haspopup="dialog"]',
      ),
    ].map((element) => {
      const { top, width } = element.getBoundingClientRect();
      return { top, width: Math.round(width) };
    }),
  );
}

/** How many rows boxes make: a box whose top is more than a pixel off its row's first starts a row. */
function rowsOf(boxes: readonly { top: number }[]): number {
  let rows = 0;
  let rowTop = Number.NEGATIVE_INFINITY;
  for (const box of boxes) {
    if (Math.abs(box.top - rowTop) <= 1) continue;
    rows += 1;
    rowTop = box.top;
  }
  return rows;
}

function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}
