import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Execution, Workflow } from '../../../../shared';
import { KEYS } from '../../api/keys';
import { useExecutionPages } from '../../api/scheduling';
import { formatDateTime } from '../../format/dates';
import { ResponsiveTable } from '../../layout/responsive-table';
import { STRINGS } from '../../strings';
import { ReplayButton, replayable } from '../scheduling/replay-button';
import { RunReportStatus } from '../scheduling/run-report';
import { REPORTS_TEXT } from '../scheduling/strings';
import { PlainMessage } from './plain-message';
import { TestConnectionButton, WorkflowHealthDetails } from './workflow-health';

const TEXT = STRINGS.executions;

/**
 * A status's words, each kept whole: StatusIndicator wraps its text at any letter ('messag' then
 * 'es'), a squeezed column wraps it between words.
 */
const wholeWords = (text: string) => (
  <span style={{ wordBreak: 'normal', overflowWrap: 'break-word' }}>{text}</span>
);

/** The history a page at a time, newest first; 'Charger plus' reads the next page. */
function ExecutionTable({ workflowId }: { readonly workflowId: string }) {
  const client = useQueryClient();
  const { query, pages } = useExecutionPages(workflowId);
  const items = pages.flatMap((page) => page.executions);
  // Read afresh from the first page (what was loaded further goes), and the health's figures with
  // it: the dialog's '24 heures' and the cards count the same runs the table shows.
  const reload = () =>
    Promise.all([
      client.resetQueries({ queryKey: KEYS.executions(workflowId) }),
      client.invalidateQueries({ queryKey: KEYS.workflowHealth(workflowId) }),
      client.invalidateQueries({ queryKey: KEYS.allHealth }),
    ]);

  return (
    <ResponsiveTable<Execution>
      variant="embedded"
      // The columns pass the dialog's width at 1280 px: 'Rejouer' stays in sight at the right, and
      // long messages wrap in their column rather than run on under it.
      stickyColumns={{ last: 1 }}
      wrapLines
      loading={query.isPending}
      loadingText={TEXT.loading}
      items={items}
      trackBy="id"
      columnDefinitions={[
        { id: 'startedAt', header: TEXT.columns.startedAt, cell: (item) => formatDateTime(item.startedAt) },
        {
          id: 'trigger',
          header: TEXT.columns.trigger,
          cell: (item) => <Badge>{TEXT.triggers[item.trigger]}</Badge>,
        },
        {
          id: 'outcome',
          header: TEXT.columns.outcome,
          // Wide enough for 'Échec' or 'Réussi' beside the icon on one line.
          minWidth: 176,
          cell: (item) =>
            item.outcome === 'success' ? (
              <StatusIndicator type="success">{wholeWords(TEXT.outcomes.success)}</StatusIndicator>
            ) : item.outcome === 'cancelled' ? (
              <StatusIndicator type="stopped">{wholeWords(TEXT.outcomes.cancelled)}</StatusIndicator>
            ) : (
              <StatusIndicator type={item.retry === 'scheduled' ? 'warning' : 'error'}>
                {wholeWords(item.retry ? TEXT.retries[item.retry] : TEXT.outcomes.failed)}
              </StatusIndicator>
            ),
        },
        {
          id: 'report',
          header: REPORTS_TEXT.history.column,
          cell: (item) => <RunReportStatus report={item.report} />,
        },
        { id: 'httpStatus', header: TEXT.columns.httpStatus, cell: (item) => item.httpStatus ?? '—' },
        { id: 'duration', header: TEXT.columns.duration, cell: (item) => TEXT.duration(item.durationMs) },
        {
          id: 'message',
          header: TEXT.columns.message,
          cell: (item) => <PlainMessage message={item.message} />,
        },
        {
          id: 'actions',
          header: REPORTS_TEXT.history.actions,
          // Wide enough for the icon and 'Rejouer' on one line beside the long messages.
          minWidth: 136,
          cell: (item) => replayable(item) && <ReplayButton workflowId={workflowId} execution={item} />,
        },
      ]}
      empty={
        <Box textAlign="center" color="inherit">
          {query.error && pages.length === 0 ? query.error.message : TEXT.empty}
        </Box>
      }
      header={
        <Box float="right">
          <Button iconName="refresh" ariaLabel={TEXT.refresh} onClick={() => void reload()} />
        </Box>
      }
      footer={
        query.hasNextPage && (
          <Box textAlign="center">
            <Button loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              {TEXT.more}
            </Button>
          </Box>
        )
      }
    />
  );
}

/**
 * 'Historique' of one workflow: a button opening a dialog with its health (state, last runs, 24
 * hours and 7 days) and its recorded webhook calls, newest first (time, trigger, status, duration,
 * message); 'Tester la connexion' in its footer.
 */
export function ExecutionHistoryButton({
  workflow,
}: {
  readonly workflow: Pick<Workflow, 'id' | 'name' | 'webhookUrl'>;
}) {
  const [open, setOpen] = useState(false);
  const client = useQueryClient();
  // A test call lands in the history: the table is read again after one (from the server: a table
  // drawn again would show the history cached when the dialog opened).
  const readAgain = () => void client.resetQueries({ queryKey: KEYS.executions(workflow.id) });
  return (
    <>
      <Button
        iconName="status-in-progress"
        ariaLabel={`${TEXT.open} ${workflow.name}`}
        onClick={() => setOpen(true)}
      >
        {TEXT.open}
      </Button>
      {open && (
        <Modal
          visible
          size="max"
          header={TEXT.title(workflow.name)}
          onDismiss={() => setOpen(false)}
          footer={
            <Box float="right">
              <SpaceBetween direction="horizontal" size="xs">
                <TestConnectionButton workflow={workflow} onTested={readAgain} />
                <Button variant="primary" onClick={() => setOpen(false)}>
                  {TEXT.close}
                </Button>
              </SpaceBetween>
            </Box>
          }
        >
          <SpaceBetween size="l">
            <WorkflowHealthDetails workflowId={workflow.id} />
            <ExecutionTable workflowId={workflow.id} />
          </SpaceBetween>
        </Modal>
      )}
    </>
  );
}
