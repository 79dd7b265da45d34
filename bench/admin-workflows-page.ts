import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The text every seeded automation's card shows (bench/api.ts names them so). */
const CARD_TEXT = 'Relance dossier client';

/** The session the SPA keeps in local storage, for an admin signed in with `licenseKey`. */
async function adminSession(baseUrl: string, licenseKey: string) {
  const reply = (await (
    await fetch(`${baseUrl}/api/verify-license`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ licenseKey }),
    })
  ).json()) as { token: string; expiresAt: string; userEmail?: string; displayName?: string };
  return {
    licenseKey,
    role: 'admin',
    name: reply.displayName ?? 'Administrateur',
    email: reply.userEmail ?? '',
    token: reply.token,
    expiresAt: reply.expiresAt,
  };
}

/**
 * Headless Chromium with an admin's tab: the session where the SPA keeps it, and the first card
 * timed inside the page, from the navigation's start to the frame that paints it (its
 * animation-frame callbacks run just before that frame's layout and paint, a few milliseconds):
 * Playwright's own polling of the page would add its polling delay (up to 300 ms measured on a
 * busy main thread) to the figure. One tab, as an admin moving around the site: Chromium's
 * headless mode builds its omnibox pop-up (about 0.5 s of CPU) for every new window, which an
 * admin's tab does not pay; the site's assets are in its cache from a first visit.
 */
async function adminTab(
  baseUrl: string,
  licenseKey: string,
): Promise<{ browser: Browser; context: BrowserContext; page: Page }> {
  const session = await adminSession(baseUrl, licenseKey);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--enable-precise-memory-info'],
  });
  const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 1280, height: 900 } });
  await context.addInitScript((value) => {
    localStorage.setItem('session_user', value);
  }, JSON.stringify(session));
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
  const page = await context.newPage();
  await page.goto(`${baseUrl}/admin/workflows`);
  await page.getByText(CARD_TEXT).first().waitFor({ timeout: 120_000 });
  return { browser, context, page };
}

/** Opens /admin/workflows afresh and resolves with the time its first card was painted. */
async function openTimed(page: Page, baseUrl: string): Promise<number> {
  await page.goto('about:blank');
  await page.goto(`${baseUrl}/admin/workflows`, { waitUntil: 'commit' });
  const painted = await page.waitForFunction(
    () => (window as unknown as { firstCardPaintedMs?: number }).firstCardPaintedMs,
    undefined,
    { timeout: 120_000 },
  );
  return Math.round((await painted.jsonValue()) as number);
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** What /admin/workflows asks of the API from its navigation until some time after its first card. */
export interface PageTraffic {
  readonly workflows: number;
  /** Navigation start to the first card painted: the median of the runs, and each run. */
  readonly firstCardMs: number;
  readonly firstCardRunsMs: readonly number[];
  /** How long after the first card the requests were still counted. */
  readonly watchedMs: number;
  /** API requests sent from the navigation to the end of the watch (the last run). */
  readonly requests: number;
  /** Bytes of the API replies' bodies as received (decompressed), same window. */
  readonly replyBytes: number;
  /** The same by route (method and path, query left out). */
  readonly byRoute: Readonly<Record<string, { readonly requests: number; readonly replyBytes: number }>>;
  /** The page's JS heap at the end of the watch, after a garbage collection. */
  readonly heapMb: number;
  readonly domNodes: number;
}

/**
 * Opens /admin/workflows `runs` times (the first card timed each time) and, on the last, counts
 * every API request and the bytes of their replies from the navigation until `watchMs` after the
 * first card, then reads the JS heap after a garbage collection: what one visit costs the API and
 * the browser, whatever the table holds.
 */
export async function measureAdminWorkflowsTraffic(options: {
  readonly baseUrl: string;
  readonly licenseKey: string;
  readonly workflows: number;
  readonly runs: number;
  readonly watchMs: number;
  /** Where to save what the admin sees at the end of the watch (a PNG), if anywhere. */
  readonly screenshotPath?: string;
}): Promise<PageTraffic> {
  const { browser, context, page } = await adminTab(options.baseUrl, options.licenseKey);
  try {
    const firstCardRunsMs: number[] = [];
    for (let run = 0; run < options.runs - 1; run++)
      firstCardRunsMs.push(await openTimed(page, options.baseUrl));
    const sent: { readonly route: string; bytes: Promise<number> }[] = [];
    let counting = true;
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!counting || !url.pathname.startsWith('/api/')) return;
      const entry = { route: `${request.method()} ${url.pathname}`, bytes: Promise.resolve(0) };
      sent.push(entry);
      entry.bytes = request
        .response()
        .then(async (response) => (response ? (await response.body()).byteLength : 0))
        .catch(() => 0);
    });
    firstCardRunsMs.push(await openTimed(page, options.baseUrl));
    await page.waitForTimeout(options.watchMs);
    counting = false;
    const bytes = await Promise.all(sent.map((entry) => entry.bytes));
    const byRoute: Record<string, { requests: number; replyBytes: number }> = {};
    sent.forEach((entry, index) => {
      const route = byRoute[entry.route] ?? { requests: 0, replyBytes: 0 };
      byRoute[entry.route] = {
        requests: route.requests + 1,
        replyBytes: route.replyBytes + (bytes[index] ?? 0),
      };
    });
    if (options.screenshotPath) await page.screenshot({ path: options.screenshotPath });
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return {
      workflows: options.workflows,
      firstCardMs: median(firstCardRunsMs),
      firstCardRunsMs,
      watchedMs: options.watchMs,
      requests: sent.length,
      replyBytes: bytes.reduce((sum, value) => sum + value, 0),
      byRoute,
      heapMb: heap.usedSize / 1e6,
      domNodes: await page.evaluate(() => document.getElementsByTagName('*').length),
    };
  } finally {
    await browser.close();
  }
}
