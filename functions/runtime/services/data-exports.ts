import { buildExportArchive } from '../../adapters/billing/export-archive';
import { DataExportRepository } from '../../data/billing/data-exports';
import { LawyerRepository } from '../../data/directory/lawyers';
import { FirmExportSource } from '../../data/portability/firm-export';
import { DataExports } from '../../domain/billing/data-export';
import { auditTarget } from '../../domain/directory/audit';
import { ownProfileOf } from '../../domain/directory/members';
import type { AppDependencies, ExportPorts } from '../dependencies';
import { auditTrailOf } from './directory';

/* A firm's data export, apart from the billing services so its functions carry none of them. */

/** The export ports of a world; a function without them fails at once, naming what is missing. */
function exportPortsOf(deps: Pick<AppDependencies, 'exports'>): ExportPorts {
  if (!deps.exports) throw new Error('Exports des données non configurés dans cet environnement');
  return deps.exports;
}

/** The firms' data exports of a world: its table, its export files and the background builds. */
export function dataExportsOf(
  deps: Pick<AppDependencies, 'table' | 'clock' | 'logger' | 'metrics' | 'exports'>,
): DataExports {
  const lawyers = new LawyerRepository(deps.table);
  const ports = exportPortsOf(deps);
  const audit = auditTrailOf(deps);
  return new DataExports({
    records: new DataExportRepository(deps.table),
    files: ports.files,
    jobs: ports.jobs,
    source: new FirmExportSource(deps.table),
    buildArchive: buildExportArchive,
    lawyers: {
      getById: (lawyerId) => lawyers.getById(lawyerId),
      profileOf: (session) => ownProfileOf(lawyers, session),
    },
    audit: (session, lawyer) => audit.record(session, 'lawyer.export', auditTarget.lawyer(lawyer)),
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
  });
}
