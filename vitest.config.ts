import { defineConfig } from 'vitest/config';

import { cloudscapeFrench } from './web/build/cloudscape-french';

/**
 * Five projects. `npm test` runs web beside infra and unit, then integration (test/support/run-tests.ts);
 * `npm run test:e2e` runs the browser suite against the local runtime.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // As for integration below: the app's modules are loaded once per worker, not once per file.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          // Each file builds its own table, clock and dependencies and restores what it spies on, so
          // the files of a worker share one module cache: the app, the AWS SDK and zod are loaded once
          // per worker rather than once per file.
          isolate: false,
          // npm test runs more of these files at once than there are CPUs (test/support/run-tests.ts),
          // on a machine that may be shared with other runs: bounds for a hung test or set-up, not budgets.
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          // aws-cdk-lib is imported once per worker rather than once per file (each file builds its own app).
          isolate: false,
          testTimeout: 240_000,
          hookTimeout: 240_000,
        },
      },
      {
        // The app's build plugins that its modules import from (a virtual module).
        plugins: [cloudscapeFrench()],
        test: {
          name: 'web',
          include: ['test/web/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['test/web/setup.ts'],
          // Cloudscape and the app's pages are loaded once per worker, not once per file: the files
          // share the module cache (each test starts from a cleared query cache, storage, DOM and
          // module state, see setup.ts), so the project spends its time on tests rather than imports.
          isolate: false,
          // A page drawn in jsdom takes seconds on a machine shared by several runs; a bound, not a budget.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
