import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Manifest, Plugin } from 'vite';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { componentsWithoutMessages, FIRST_SCREEN_MESSAGES } from '../../../../web/build/cloudscape-french';
import {
  LOGIN_BUDGET,
  LOGIN_MODULES,
  loginBudget,
  pageFiles,
  pageWeight,
  readManifest,
} from '../../../../web/build/login-budget';
import { PRERENDERED_PAGE_MODULES } from '../../../../web/build/prerender';

const CONFIG_FILE = fileURLToPath(new URL('../../../../web/vite.config.ts', import.meta.url));
const BUILD_TIMEOUT_MS = 240_000;

/** Builds the SPA with its real configuration into `outDir`, keeping which modules each file holds. */
async function buildSpa(outDir: string, plugins: Plugin[] = []) {
  const modulesByFile = new Map<string, string[]>();
  // Vitest sets NODE_ENV=test, which Vite would keep, bundling React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  await build({
    configFile: CONFIG_FILE,
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
    plugins: [
      ...plugins,
      {
        name: 'test:modules-by-file',
        generateBundle(_options, bundle) {
          for (const output of Object.values(bundle)) {
            if (output.type === 'chunk') modulesByFile.set(output.fileName, output.moduleIds);
          }
        },
      },
    ],
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  });
  return modulesByFile;
}

describe('the /login chunk graph read from a Vite manifest', () => {
  const manifest: Manifest = {
    'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_app.js'], css: ['assets/index.css'] },
    '_app.js': { file: 'assets/app.js', imports: ['_shared.js'], dynamicImports: ['src/admin.tsx'] },
    '_shared.js': { file: 'assets/shared.js', css: ['assets/shared.css'] },
    'src/pages/login/login-page.tsx': {
      file: 'assets/login.js',
      isDynamicEntry: true,
      imports: ['_shared.js'],
      css: ['assets/login.css'],
    },
    'src/admin.tsx': { file: 'assets/admin.js', isDynamicEntry: true, css: ['assets/admin.css'] },
  };

  it('follows static imports and their CSS, once each, and leaves dynamic imports out', () => {
    expect(pageFiles(manifest, ['index.html', 'src/pages/login/login-page.tsx'])).toEqual({
      javascript: ['assets/app.js', 'assets/index.js', 'assets/login.js', 'assets/shared.js'],
      css: ['assets/index.css', 'assets/login.css', 'assets/shared.css'],
    });
  });

  it('fails loudly when a module of /login is not in the manifest (a renamed page)', () => {
    expect(() => pageFiles(manifest, ['index.html', 'src/pages/login/connexion.tsx'])).toThrow(
      'src/pages/login/connexion.tsx',
    );
  });
});

describe('the built SPA', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'spa-build-'));
  let modulesByFile = new Map<string, string[]>();

  beforeAll(async () => {
    modulesByFile = await buildSpa(outDir);
  }, BUILD_TIMEOUT_MS);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('keeps /login within its budgets: 200 kB of JavaScript and 100 kB of CSS, gzipped', () => {
    const weight = pageWeight(outDir);

    expect(weight.javascript.gzipBytes).toBeLessThanOrEqual(LOGIN_BUDGET.javascriptBytes);
    expect(weight.css.gzipBytes).toBeLessThanOrEqual(LOGIN_BUDGET.cssBytes);
    expect(weight.javascript.files.length).toBeGreaterThan(0);
    expect(weight.css.files.length).toBeGreaterThan(0);
  });

  it('loads neither the signed-in shell, nor an app layout, a table or drag and drop on /login', () => {
    const { javascript } = pageFiles(readManifest(outDir), LOGIN_MODULES);
    const modules = javascript.flatMap((file) => modulesByFile.get(file) ?? []);

    expect(modules.some((id) => id.endsWith('web/src/pages/login/login-page.tsx'))).toBe(true);
    expect(modules.filter((id) => /layout[\\/](app-shell|public-layout)\.tsx$/.test(id))).toEqual([]);
    expect(modules.filter((id) => /components[\\/](app-layout|table|top-navigation)[\\/]/.test(id))).toEqual(
      [],
    );
    expect(modules.filter((id) => /@dnd-kit/.test(id))).toEqual([]);
    // The login card's other forms arrive when asked for.
    expect(
      modules.filter((id) =>
        /pages[\\/]login[\\/](purchase-form|portal-link-form|second-factor-step)\.tsx$/.test(id),
      ),
    ).toEqual([]);
  });

  it('gives /login the French labels of its own Cloudscape components, and the whole catalogue a chunk of its own', () => {
    const { javascript } = pageFiles(readManifest(outDir), LOGIN_MODULES);
    const modules = javascript.flatMap((file) => modulesByFile.get(file) ?? []);
    const catalogue = /i18n[\\/]messages[\\/]all\.fr\.js$/;

    expect(modules.some((id) => id.includes(FIRST_SCREEN_MESSAGES))).toBe(true);
    expect(componentsWithoutMessages(modules)).toEqual([]);
    expect(modules.filter((id) => catalogue.test(id))).toEqual([]);
    expect([...modulesByFile.values()].filter((ids) => ids.some((id) => catalogue.test(id)))).toHaveLength(1);
  });

  it('gives each page its own chunk, loaded on navigation', () => {
    const manifest = readManifest(outDir);
    for (const page of ['src/pages/admin-workflows/admin-workflows-page.tsx', 'src/layout/app-shell.tsx']) {
      expect(manifest[page]?.isDynamicEntry).toBe(true);
    }
  });

  it('serves the fonts as woff2 files, not base64 inside the CSS', () => {
    const assets = readdirSync(join(outDir, 'assets'));
    const css = assets
      .filter((file) => file.endsWith('.css'))
      .map((file) => readFileSync(join(outDir, 'assets', file), 'utf8'))
      .join('\n');

    expect(css).not.toMatch(/data:font/);
    expect(css).toMatch(/@font-face\{font-display:swap;[^}]*url\(\/assets\/open-sans-[\w-]+\.woff2\)/);
    expect(assets.filter((file) => file.endsWith('.woff2')).length).toBeGreaterThanOrEqual(2);
  });

  it('pre-renders /login into login.html: the card in #root, started once painted, settings left to the server', () => {
    const index = readFileSync(join(outDir, 'index.html'), 'utf8');
    const login = readFileSync(join(outDir, 'login.html'), 'utf8');
    const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(index)?.[1];

    expect(login).toMatch(/<div id="root"><.+Connexion<\/span><\/h1>.+<\/div>/s);
    expect(login).toContain('Propulsé par');
    expect(entry).toMatch(/^\/assets\/.+\.js$/);
    // A card with a form: the application takes it over as soon as it is painted, to answer it.
    expect(login).toContain(
      `<script type="module" src="/start-after-paint.js" data-entry="${entry}" data-start="at-once" ` +
        'data-session-key="session_user"></script>',
    );
    expect(login).toContain('<title>Connexion · Assistant IA Juridique</title>');
    expect(login).not.toContain(`src="${entry}"`);
    // A signed-in page's first lists are asked for by index.html; /login has none to ask for.
    expect(index).toContain('<script src="/first-reads.js"></script>');
    expect(login).not.toContain('first-reads');
    expect(login).toContain('<script id="runtime-config" type="application/json"></script>');
    // The same styles as every other page, in the head, so that the card shows styled at once.
    expect(login).toContain(/<link rel="stylesheet"[^>]+>/.exec(index)?.[0]);
    expect(readFileSync(join(outDir, 'start-after-paint.js'), 'utf8')).toContain('data-entry');
  });

  it('names the tab of each public page and starts its application when used: text and links only', () => {
    const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(
      readFileSync(join(outDir, 'index.html'), 'utf8'),
    )?.[1];
    const pages = {
      'landing.html': 'Bienvenue sur votre Assistant IA Juridique',
      'discover.html': "Assistant IA Juridique, c'est quoi ?",
      'privacy.html': 'Politique de Confidentialité',
      'payment-success.html': 'Paiement réussi !',
    } as const;
    for (const [file, title] of Object.entries(pages)) {
      const html = readFileSync(join(outDir, file), 'utf8');
      const markup = /<div id="root">(.*)<\/div>\s*<\/body>/s.exec(html)?.[1] ?? '';

      expect(html).toContain(`<title>${title} · Assistant IA Juridique</title>`);
      expect(html).toContain(
        `<script type="module" src="/start-after-paint.js" data-entry="${entry}" data-start="on-use" ` +
          'data-session-key="session_user"></script>',
      );
      expect(markup).toContain('href="/login"');
      expect(markup).not.toMatch(/<(button|input|select|textarea|form)[\s>]/);
    }
  });

  it('links in each public page the stylesheets of its own chunks, so that the application adds none when it takes the page over', () => {
    const manifest = readManifest(outDir);
    const pages = { '/': 'landing.html', '/discover': 'discover.html', '/privacy': 'privacy.html' } as const;
    for (const [route, file] of Object.entries(pages)) {
      const html = readFileSync(join(outDir, file), 'utf8');
      const linked = [...html.matchAll(/<link rel="stylesheet" crossorigin href="\/([^"]+)">/g)].map(
        (match) => match[1],
      );
      const needed = pageFiles(manifest, ['index.html', ...(PRERENDERED_PAGE_MODULES[route] ?? [])]).css;

      expect(linked.sort()).toEqual(needed);
      expect(needed.length).toBeGreaterThan(1);
    }
  });

  it('loads no app layout, table or query layer on the public pages: each loads its own code', () => {
    const manifest = readManifest(outDir);
    for (const route of ['/', '/discover', '/privacy', '/payment-success']) {
      const { javascript } = pageFiles(manifest, ['index.html', ...(PRERENDERED_PAGE_MODULES[route] ?? [])]);
      const modules = javascript.flatMap((file) => modulesByFile.get(file) ?? []);

      expect(modules.filter((id) => /components[\\/](app-layout|table)[\\/]/.test(id))).toEqual([]);
      expect(modules.filter((id) => /@tanstack[\\/]/.test(id))).toEqual([]);
      expect(modules.filter((id) => /layout[\\/]app-shell\.tsx$/.test(id))).toEqual([]);
    }
  });

  it('leaves the runtime settings block of index.html empty, for the server to fill', () => {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');

    expect(html).toContain('<script id="runtime-config" type="application/json"></script>');
  });
});

describe('the budget check', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'spa-build-over-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it(
    'fails the build when /login passes its budget',
    async () => {
      const failure = await buildSpa(outDir, [
        loginBudget({ javascriptBytes: 1_000, cssBytes: 1_000 }),
      ]).catch((error: unknown) => error);

      expect(String(failure)).toContain('budget de /login dépassé');
    },
    BUILD_TIMEOUT_MS,
  );
});
