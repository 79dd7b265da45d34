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
  const success = report.state === 'success';
  return (
    <SpaceBetween size="xxxs">
      <ReportedText
        type={success ? 'success' : 'error'}
        text={success ? TEXT.success(report.summary) : TEXT.failure(report.error ?? report.summary)}
      />
      {items}
    </SpaceBetween>
  );
}

/**
 * A status icon and the workflow's own words after it. Not inside the StatusIndicator, which is
 * made for a few words and breaks anywhere in a word (Cloudscape's `word-break: break-all`): a
 * summary wraps between words on a phone.
 */
function ReportedText({ type, text }: { readonly type: 'success' | 'error'; readonly text: string }) {
  return (
    <Box variant="span" color={type === 'success' ? 'text-status-success' : 'text-status-error'}>
      <StatusIndicator type={type} /> {text}
    </Box>
  );
}
