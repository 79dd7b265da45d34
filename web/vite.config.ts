import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

import { chartTokensApart } from './build/chart-tokens';
import { cloudscapeFrench } from './build/cloudscape-french';
import { fontFiles } from './build/font-files';
import { loginBudget } from './build/login-budget';
import { prerenderRoutes } from './build/prerender';

/** The local runtime (`npm start`) serves the API and /config.json on this origin. */
const LOCAL_BACKEND = 'http://localhost:3000';
const proxy = { '/api': LOCAL_BACKEND, '/config.json': LOCAL_BACKEND };

const alias = [
  {
    // Cloudscape's French messages ship pre-compiled (ICU syntax trees), so its formatter never
    // parses a message: FormatJS's parser-less build spares /login about 15 kB compressed.
    find: /^@formatjs\/icu-messageformat-parser$/,
    replacement: '@formatjs/icu-messageformat-parser/lib/no-parser.js',
  },
];

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    react(),
    cloudscapeFrench(),
    chartTokensApart(),
    fontFiles(),
    loginBudget(),
    prerenderRoutes({ alias }),
  ],
  resolve: { alias },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The chunk graph, read by the /login budget check (and the benchmark) after the build.
    manifest: true,
    // Every route is its own lazily loaded chunk (app-routes.tsx) and the bundler splits what
    // the pages share by use. The one group gathers what the entry needs before any page (React,
    // the router, the session, the schemas) into one chunk instead of a dozen small ones, each
    // compressed apart. No Cloudscape group: it would pull every component (app layout, table,
    // drag and drop) into every page.
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } },
    },
    // Browsers that run this app support <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
  },
  server: { proxy },
  preview: { proxy },
});
