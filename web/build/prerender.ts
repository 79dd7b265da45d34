import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import react from '@vitejs/plugin-react';
import { type AliasOptions, build, type Plugin, type ResolvedConfig } from 'vite';

import { cloudscapeFrench } from './cloudscape-french';
import { pageFiles, readManifest } from './login-budget';

/** What `web/src/prerender.tsx` exports, as the server build of it is imported here. */
interface PrerenderModule {
  readonly PRERENDERED_ROUTES: readonly string[];
  readonly SESSION_STORAGE_KEY: string;
  readonly prerenderedPageOf: (route: string) => string;
  readonly renderRoute: (path: string) => Promise<{ readonly markup: string; readonly title?: string }>;
}

/**
 * The source files of each pre-rendered route's own chunks beyond the entry, as the Vite manifest
 * names them (the parts web/src/app-routes.tsx preloads for it): their stylesheets are linked in the
 * route's page.
 */
export const PRERENDERED_PAGE_MODULES: Readonly<Record<string, readonly string[]>> = {
  '/login': [],
  '/': ['src/layout/public-layout.tsx', 'src/pages/landing/landing-page.tsx'],
  '/discover': ['src/layout/public-layout.tsx', 'src/pages/discover/discover-page.tsx'],
  '/privacy': ['src/layout/public-layout.tsx', 'src/pages/privacy/privacy-page.tsx'],
  '/payment-success': ['src/pages/payment-success/payment-success-page.tsx'],
};

const ROOT_ELEMENT = '<div id="root"></div>';
/** The script of index.html reading a signed-in page's first lists: nothing for a pre-rendered page to read. */
const FIRST_READS_SCRIPT =
  /\s*<!--[^>]*-->\s*<script src="\/first-reads\.js"><\/script>|\s*<script src="\/first-reads\.js"><\/script>/;
/** The entry's stylesheet Vite writes into index.html: a page's own follow it. */
const ENTRY_STYLESHEET = /<link rel="stylesheet" crossorigin href="[^"]+">/;
/** The entry script Vite writes into index.html. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
/** The product's name as index.html titles every page: a pre-rendered page says which page it is. */
const DOCUMENT_TITLE = /<title>[^<]*<\/title>/;
/** What a visitor can act on other than by following a link: the application answers it. */
const CONTROL = /<(button|input|select|textarea|form)[\s>]/;

/** A pre-rendered route's page, as web/src/prerender.tsx renders it. */
export interface PrerenderedPage {
  readonly markup: string;
  /** The browser tab's title the page sets; index.html's when it sets none. */
  readonly title?: string;
  /** The stylesheets of the route's own chunks beyond the entry's. */
  readonly stylesheets?: readonly string[];
  /** The local-storage key of a signed-in visitor's session (web/src/api/session-storage.ts). */
  readonly sessionKey: string;
}

/**
 * When the application takes a page over (web/public/start-after-paint.js): a page of text and
 * links only is complete as painted for a visitor who is not signed in, so it starts when used;
 * a page with a control (a button, a field, a form) starts once painted, to answer it.
 */
export function startOf(markup: string): 'on-use' | 'at-once' {
  return CONTROL.test(markup) ? 'at-once' : 'on-use';
}

const escapeAttribute = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
const escapeText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

/**
 * The page of a pre-rendered route: the built index.html with the route's markup in #root, its
 * title, the stylesheets of the route's own chunks beside the entry's (the markup is laid out as the
 * application will keep it, instead of moving when its code brings them), and its entry script
 * fetched and run once that markup is painted, or once used (`startOf`), by
 * web/public/start-after-paint.js.
 */
export function pageWithMarkup(
  indexHtml: string,
  { markup, title, stylesheets = [], sessionKey }: PrerenderedPage,
): string {
  if (!indexHtml.includes(ROOT_ELEMENT))
    throw new Error(`index.html sans ${ROOT_ELEMENT} : rien à pré-rendre`);
  if (!ENTRY_SCRIPT.test(indexHtml)) throw new Error("index.html sans script d'entrée : rien à hydrater");
  if (stylesheets.length > 0 && !ENTRY_STYLESHEET.test(indexHtml))
    throw new Error("index.html sans feuille de style d'entrée : où lier celles de la page ?");
  const links = stylesheets
    .map((href) => `\n    <link rel="stylesheet" crossorigin href="${href}">`)
    .join('');
  return indexHtml
    .replace(FIRST_READS_SCRIPT, '')
    .replace(DOCUMENT_TITLE, (indexTitle) => (title ? `<title>${escapeText(title)}</title>` : indexTitle))
    .replace(ENTRY_STYLESHEET, (entry) => `${entry}${links}`)
    .replace(
      ENTRY_SCRIPT,
      (_script, entry: string) =>
        `<script type="module" src="/start-after-paint.js" data-entry="${entry}" ` +
        `data-start="${startOf(markup)}" data-session-key="${escapeAttribute(sessionKey)}"></script>`,
    )
    .replace(ROOT_ELEMENT, () => `<div id="root">${markup}</div>`);
}

/**
 * Writes the first screen of the routes of `web/src/prerender.tsx` into their own page
 * (`login.html`, `landing.html`, …) after the browser build: the same components built for Node (Vite's server
 * build, every dependency bundled so that Cloudscape's CSS imports resolve), rendered to HTML and
 * put in the built index.html, which keeps its scripts and styles. The servers answer the route
 * with that page (lib/local/http-adapter.ts, the CloudFront function of lib/constructs/site.ts);
 * the browser paints it as soon as the CSS is in, and main.tsx hydrates it.
 */
export function prerenderRoutes(options: { readonly alias: AliasOptions }): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'assistant:prerender',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      // A folder of its own each build: Node caches a module by its URL, and the lazy pages' chunks
      // import the entry by its plain URL (a query on it would load a second copy of the app).
      const serverDir = join(config.cacheDir, 'prerender', String(Date.now()));
      await build({
        configFile: false,
        root: config.root,
        mode: config.mode,
        logLevel: 'warn',
        plugins: [react(), cloudscapeFrench()],
        resolve: { alias: options.alias },
        ssr: { noExternal: true },
        build: {
          ssr: 'src/prerender.tsx',
          outDir: serverDir,
          emptyOutDir: true,
          minify: false,
          rolldownOptions: { output: { entryFileNames: 'prerender.mjs' } },
        },
      });
      const module = (await import(pathToFileURL(join(serverDir, 'prerender.mjs')).href)) as PrerenderModule;
      const indexHtml = readFileSync(join(outDir, 'index.html'), 'utf8');
      const manifest = readManifest(outDir);
      const entryStylesheets = new Set(pageFiles(manifest, ['index.html']).css);
      for (const route of module.PRERENDERED_ROUTES) {
        const ownModules = PRERENDERED_PAGE_MODULES[route];
        if (!ownModules) throw new Error(`Route pré-rendue sans ses modules : ${route}`);
        const stylesheets = pageFiles(manifest, ownModules)
          .css.filter((file) => !entryStylesheets.has(file))
          .map((file) => `${config.base}${file}`);
        const { markup, title } = await module.renderRoute(route);
        writeFileSync(
          join(outDir, module.prerenderedPageOf(route)),
          pageWithMarkup(indexHtml, { markup, title, stylesheets, sessionKey: module.SESSION_STORAGE_KEY }),
        );
      }
      rmSync(serverDir, { recursive: true, force: true });
    },
  };
}
