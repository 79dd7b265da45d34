import { chromium } from 'playwright-core';

/** /admin/workflows in Chromium: time to the first card and the page's size once all is loaded. */
export interface PageFigures {
  readonly workflows: number;
  /** Navigation start to the frame that paints the first automation card, median of the runs. */
  readonly firstCardMs: number;
  readonly firstCardRunsMs: readonly number[];
  /** Navigation start to every page of automations loaded (the counter without '+'). */
  readonly allLoadedMs: number;
  readonly domNodes: number;
  readonly heapMb: number;
}

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The text every seeded automation's card shows (bench/api.ts names them so). */
const CARD_TEXT = 'Relance dossier client';

/**
 * Opens /admin/workflows as a signed-in admin (the session put where the SPA keeps it) in headless
 * Chromium, `runs` times in one tab, and measures from navigation to the first card painted;
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
    // The first card is timed inside the page, from the navigation's start to the frame that
    // paints it (its animation-frame callbacks run just before that frame's layout and paint, a
    // few milliseconds): Playwright's own polling of the page would add its polling delay (up to
    // 300 ms measured on a busy main thread) to the figure.
    await context.addInitScript((cardText) => {
      const timed = window as unknown as { firstCardPaintedMs?: number };
      const observer = new MutationObserver(() => {
        if (!document.body?.textContent?.includes(cardText)) return;
        observer.disconnect();
        requestAnimationFrame(() => {
          timed.firstCardPaintedMs = performance.now();
        });
      });
      observer.observe(document, { subtree: true, childList: true, characterData: true });
    }, CARD_TEXT);
    // One tab, as an admin moving around the site: Chromium's headless mode builds its omnibox
    // pop-up (a WebUI page, about 0.5 s of CPU on the other core, seen in a trace) for every new
    // window, which an admin's tab does not pay. The site's assets are in its cache from the
    // first visit, as for an admin coming back to the page.
    const page = await context.newPage();
    await page.goto(`${options.baseUrl}/admin/workflows`);
    await page.getByText(CARD_TEXT).first().waitFor({ timeout: 120_000 });

    const firstCardRunsMs: number[] = [];
    let allLoadedMs = 0;
    let domNodes = 0;
    let heapMb = 0;
    for (let run = 0; run < options.runs; run++) {
      await page.goto('about:blank');
      const started = Date.now();
      await page.goto(`${options.baseUrl}/admin/workflows`, { waitUntil: 'commit' });
      const painted = await page.waitForFunction(
        () => (window as unknown as { firstCardPaintedMs?: number }).firstCardPaintedMs,
        undefined,
        { timeout: 120_000 },
      );
      firstCardRunsMs.push(Math.round((await painted.jsonValue()) as number));
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
