import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createDataExportBuilderHandler } from '../../functions/handlers/billing/data-export-builder';
import type { AppDependencies } from '../../functions/runtime/dependencies';
import { inProcessExportJobs, LocalExportFiles } from '../../lib/local/data-exports';

/**
 * A test app with the firms' data exports of the local runtime: files in a temporary folder,
 * built by a task of the test's process. `idle()` waits for the builds started; `dispose()` removes
 * the folder.
 */
export function withExports<T extends AppDependencies>(app: T, publicUrl = 'http://localhost:3000') {
  const directory = mkdtempSync(join(tmpdir(), 'exports-'));
  const files = new LocalExportFiles(directory, () => publicUrl);
  const jobs = inProcessExportJobs(app.logger);
  const deps: T = { ...app, exports: { files, jobs } };
  const build = createDataExportBuilderHandler(deps);
  jobs.bind((job) => build(job, undefined));
  return {
    app: deps,
    files,
    directory,
    idle: () => jobs.idle(),
    dispose: async () => {
      await jobs.idle();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
