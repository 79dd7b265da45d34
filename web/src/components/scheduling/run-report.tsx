import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';

import type { RunReport } from '../../../../shared/schemas/completion-report';
import { formatDateTime } from '../../format/dates';
import { REPORTS_TEXT } from './strings';

const TEXT = REPORTS_TEXT.history;

/**
 * What the workflow said of its run, beside the delivery: 'Terminé : …', 'Échec signalé par le
 * workflow : …', or 'Sans compte rendu' when it usually reports and is past its expected time;
 * nothing otherwise (not late yet, or a workflow that does not report).
 */
export function RunReportStatus({ report }: { readonly report: RunReport | null | undefined }) {
  if (!report) return null;
  if (report.state === 'missing') {
    return (
      <SpaceBetween size="xxxs">
        <StatusIndicator type="warning">{TEXT.missing}</StatusIndicator>
        <Box variant="small">{TEXT.missingSince(formatDateTime(report.expectedBy))}</Box>
      </SpaceBetween>
    );
  }
  const items = report.items === null ? null : <Box variant="small">{TEXT.items(report.items)}</Box>;
  return (
    <SpaceBetween size="xxxs">
      {report.state === 'success' ? (
        <StatusIndicator type="success">{TEXT.success(report.summary)}</StatusIndicator>
      ) : (
        <StatusIndicator type="error">{TEXT.failure(report.error ?? report.summary)}</StatusIndicator>
      )}
      {items}
    </SpaceBetween>
  );
}
