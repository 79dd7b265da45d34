import { chromium } from 'playwright-core';

/** /admin/workflows in Chromium: time to the first card and the page's size once all is loaded. */
export interface PageFigures {
  readonly workflows: number;
  /** Navigation start to the first automation card visible, median of the runs. */
  readonly firstCardMs: number;
  readonly firstCardRunsMs: readonly number[];
  /** Navigation start to every page of automations loaded (the counter without '+'). */
  readonly allLoadedMs: number;
  readonly domNodes: number;
  readonly heapMb: number;
}

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Opens /admin/workflows as a signed-in admin (the session put where the SPA keeps it) in headless
 * Chromium, `runs` times in fresh pages, and measures from navigation to the first card visible;
 * then counts the DOM nodes and the JS heap once every page of automations is in.
 */
export async function measureAdminWorkflowsPage(options: {
  readonly baseUrl: string;
  readonly licenseKey: string;
  readonly workflows: number;
  readonly runs: number;
}): Promise<PageFigures> {
  const reply = (await (
    await fetch(`${options.baseUrl}/api/verify-license`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ licenseKey: options.licenseKey }),
    })
  ).json()) as { token: string; expiresAt: string; userEmail?: string; displayName?: string };
  const session = {
    licenseKey: options.licenseKey,
    role: 'admin',
    name: reply.displayName ?? 'Administrateur',
    email: reply.userEmail ?? '',
    token: reply.token,
    expiresAt: reply.expiresAt,
  };
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--enable-precise-memory-info'],
  });
  try {
    const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 1280, height: 900 } });
    await context.addInitScript((value) => {
      localStorage.setItem('session_user', value);
    }, JSON.stringify(session));
    // The site's assets in the cache first, as for an admin coming back to the page.
    const warm = await context.newPage();
    await warm.goto(`${options.baseUrl}/admin/workflows`);
    await warm.getByText('Relance dossier client').first().waitFor({ timeout: 120_000 });
    await warm.close();

    const firstCardRunsMs: number[] = [];
    let allLoadedMs = 0;
    let domNodes = 0;
    let heapMb = 0;
    for (let run = 0; run < options.runs; run++) {
      const page = await context.newPage();
      const started = Date.now();
      await page.goto(`${options.baseUrl}/admin/workflows`, { waitUntil: 'commit' });
      await page.getByText('Relance dossier client').first().waitFor({ state: 'visible', timeout: 120_000 });
      firstCardRunsMs.push(Date.now() - started);
      if (run === options.runs - 1) {
        await page.getByText(`(${options.workflows})`, { exact: true }).first().waitFor({ timeout: 120_000 });
        allLoadedMs = Date.now() - started;
        domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
        heapMb = await page.evaluate(
          () =>
            ((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ??
              0) / 1e6,
        );
      }
      await page.close();
    }
    const sorted = [...firstCardRunsMs].sort((a, b) => a - b);
    return {
      workflows: options.workflows,
      firstCardMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
      firstCardRunsMs,
      allLoadedMs,
      domNodes,
      heapMb,
    };
  } finally {
    await browser.close();
  }
}
