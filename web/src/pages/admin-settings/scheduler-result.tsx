import Box from '@cloudscape-design/components/box';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';

import { MESSAGES, type SchedulerResult } from '../../../../shared';
import { formatDateTime } from '../../format/dates';
import { ADMIN_SETTINGS_TEXT } from './strings';

const TEXT = ADMIN_SETTINGS_TEXT.lastResult;

/**
 * The counts of a run: processed (dispatched), succeeded, failed and still queued, out of the
 * checked ones. A queued run becomes a success or a failure when its call ends. Processed counts
 * every run; the others count the runs the result follows (`listed`), a few per due-index shard
 * of a large run.
 */
export function resultCounts(result: SchedulerResult) {
  const count = (status: SchedulerResult['executions'][number]['status']) =>
    result.executions.filter((execution) => execution.status === status).length;
  return {
    processed: result.workflows_processed ?? result.executions.length,
    listed: result.executions.length,
    succeeded: count('success'),
    failed: count('failed'),
    queued: count('queued'),
  };
}

/** One scheduler result (spec §2): badge, counts, fr-FR time or 'Jamais', message and error. */
export function SchedulerResultView({ result }: { readonly result: SchedulerResult | null }) {
  if (!result) {
    return <KeyValuePairs items={[{ label: TEXT.time, value: TEXT.never }]} />;
  }
  const { processed, listed, succeeded, failed, queued } = resultCounts(result);
  return (
    <SpaceBetween size="s">
      {result.success ? (
        <StatusIndicator type="success">{TEXT.success}</StatusIndicator>
      ) : (
        <StatusIndicator type="error">{TEXT.failure}</StatusIndicator>
      )}
      <KeyValuePairs
        columns={4}
        items={[
          { label: TEXT.processedLabel, value: TEXT.processed(processed, result.workflows_checked) },
          { label: TEXT.succeeded, value: succeeded },
          { label: TEXT.failed, value: failed },
          { label: TEXT.queued, value: queued },
          { label: TEXT.time, value: formatDateTime(result.timestamp) },
        ]}
      />
      {listed < processed && <Box variant="small">{TEXT.followed(listed, processed)}</Box>}
      <KeyValuePairs items={[{ label: TEXT.message, value: result.message }]} />
      {result.error !== undefined && (
        <Box color="text-status-error">{MESSAGES.scheduler.errorBanner(result.error || undefined)}</Box>
      )}
    </SpaceBetween>
  );
}
