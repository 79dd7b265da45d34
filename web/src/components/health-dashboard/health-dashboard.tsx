import BarChart from '@cloudscape-design/components/bar-chart';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import Header from '@cloudscape-design/components/header';
import LineChart from '@cloudscape-design/components/line-chart';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';

import { useQuery } from '@tanstack/react-query';
import type { DeliveryHour, FailingWorkflow } from '../../../../shared/schemas/health';
import { endedSession } from '../../api/api-errors';
import { healthDashboardQuery } from '../../api/health';
import { useAuth } from '../../auth/auth-context';
import { formatDateTime } from '../../format/dates';
import { ResponsiveTable } from '../../layout/responsive-table';
import { useFollow } from '../../layout/use-follow';
import { automationLink, HEALTH_TEXT } from '../workflows/health-strings';
import { PlainMessage } from '../workflows/plain-message';
import { HealthStatus } from '../workflows/workflow-health';

const TEXT = HEALTH_TEXT.dashboard;

/** The outcomes stacked in the deliveries chart, bottom to top. */
const OUTCOMES = ['succeeded', 'reportedFailed', 'retried', 'failed', 'deadLettered'] as const;
/** Cloudscape's own status colours for each outcome (its chart palette's meaning). */
const OUTCOME_COLORS: Record<(typeof OUTCOMES)[number], string> = {
  succeeded: '#2ea597',
  reportedFailed: '#f89256',
  retried: '#f2b200',
  failed: '#eb6f6f',
  deadLettered: '#962249',
};

/**
 * An hour's calls of one outcome as stacked: a delivered call whose workflow then reported a
 * failure is counted by the server in `succeeded` too, and shown here apart from it.
 */
const countOf = (hour: DeliveryHour, outcome: (typeof OUTCOMES)[number]) =>
  outcome === 'succeeded' ? Math.max(0, hour.succeeded - (hour.reportedFailed ?? 0)) : (hour[outcome] ?? 0);

/** The data of both charts as a table: the accessible view of what the bars and the line show. */
function HoursTable({
  hours,
  lagTitle,
}: {
  readonly hours: readonly DeliveryHour[];
  readonly lagTitle: string;
}) {
  return (
    <ResponsiveTable<DeliveryHour>
      variant="embedded"
      ariaLabels={{ tableLabel: TEXT.tableAria }}
      items={[...hours]}
      trackBy="hour"
      columnDefinitions={[
        { id: 'hour', header: TEXT.hour, cell: (item) => TEXT.hourLabel(item.hour) },
        ...OUTCOMES.map((outcome) => ({
          id: outcome,
          header: TEXT.series[outcome],
          cell: (item: DeliveryHour) => countOf(item, outcome),
        })),
        { id: 'lag', header: lagTitle, cell: (item) => TEXT.lagValue(item.lagP95Ms) },
      ]}
    />
  );
}

function FailingTable({
  failing,
  failingTotal,
  workflowsPath,
}: {
  readonly failing: readonly FailingWorkflow[];
  /** How many are in failure: more than `failing` when the server cut the list. */
  readonly failingTotal: number;
  readonly workflowsPath: string;
}) {
  const columns = TEXT.columns;
  const follow = useFollow();
  return (
    <ResponsiveTable<FailingWorkflow>
      variant="embedded"
      ariaLabels={{ tableLabel: TEXT.failingTitle }}
      header={
        <Header
          variant="h3"
          description={
            failingTotal > failing.length ? TEXT.failingListed(failing.length, failingTotal) : undefined
          }
        >
          {TEXT.failingTitle}
        </Header>
      }
      items={[...failing]}
      trackBy="workflowId"
      columnDefinitions={[
        {
          id: 'name',
          header: columns.name,
          cell: (item) => (
            <Link href={automationLink(workflowsPath, item.workflowName)} onFollow={follow}>
              {item.workflowName}
            </Link>
          ),
        },
        { id: 'state', header: columns.state, cell: (item) => <HealthStatus state={item.state} /> },
        { id: 'consecutive', header: columns.consecutive, cell: (item) => item.consecutiveFailures },
        {
          id: 'lastFailureAt',
          header: columns.lastFailureAt,
          cell: (item) => (item.lastFailureAt ? formatDateTime(item.lastFailureAt) : '—'),
        },
        {
          id: 'message',
          header: columns.message,
          cell: (item) =>
            item.lastFailureMessage ? <PlainMessage message={item.lastFailureMessage} /> : '—',
        },
      ]}
      empty={
        <Box textAlign="center" color="inherit">
          {TEXT.failingEmpty}
        </Box>
      }
    />
  );
}

/**
 * The health dashboard: the calls of the last 24 hours per hour, stacked by outcome,
 * the dispatch lag's p95, and the automations in failure first, each linking to its page. An
 * admin sees everyone's (/admin/settings); a lawyer or notary his own (/lawyer/cron,
 * /notary/cron): the server decides. Loaded as its own chunk, on those pages only. The charts are
 * one above the other, each the container's full width: side by side in a column layout, a chart
 * that had once measured itself wider kept its cell from shrinking back.
 */
export function HealthDashboard({ workflowsPath }: { readonly workflowsPath: string }) {
  const query = useQuery(healthDashboardQuery);
  const hours = query.data?.hours ?? [];
  const labels = hours.map((hour) => TEXT.hourLabel(hour.hour));
  const status = query.data ? 'finished' : query.error && !endedSession(query.error) ? 'error' : 'loading';
  const anyCall = hours.some((hour) => OUTCOMES.some((outcome) => countOf(hour, outcome) > 0));
  // The admin keeps the technical titles (p95, calls); a lawyer or notary reads them in words.
  const titles = useAuth().isAdmin
    ? {
        description: TEXT.description,
        deliveriesTitle: TEXT.deliveriesTitle,
        deliveriesAria: TEXT.deliveriesAria,
        lagTitle: TEXT.lagTitle,
        lagAria: TEXT.lagAria,
        lag: TEXT.series.lag,
      }
    : TEXT.plain;
  return (
    <Container
      header={
        <Header
          variant="h2"
          description={titles.description}
          actions={
            <Button iconName="refresh" ariaLabel={TEXT.refresh} onClick={() => void query.refetch()} />
          }
        >
          {TEXT.title}
        </Header>
      }
    >
      <SpaceBetween size="l">
        <FailingTable
          failing={query.data?.failing ?? []}
          failingTotal={query.data?.failingTotal ?? 0}
          workflowsPath={workflowsPath}
        />
        <div>
          <Header variant="h3">{titles.deliveriesTitle}</Header>
          <BarChart
            statusType={status}
            errorText={TEXT.loadFailed}
            onRecoveryClick={() => void query.refetch()}
            stackedBars
            hideFilter
            height={220}
            ariaLabel={titles.deliveriesAria}
            xTitle={TEXT.hour}
            yTitle={TEXT.calls}
            xScaleType="categorical"
            xDomain={labels}
            series={
              anyCall
                ? OUTCOMES.map((outcome) => ({
                    title: TEXT.series[outcome],
                    type: 'bar' as const,
                    color: OUTCOME_COLORS[outcome],
                    data: hours.map((hour, index) => ({ x: labels[index] ?? '', y: countOf(hour, outcome) })),
                  }))
                : []
            }
            empty={
              <Box textAlign="center" color="inherit">
                {TEXT.empty}
              </Box>
            }
          />
        </div>
        <div>
          <Header variant="h3">{titles.lagTitle}</Header>
          <LineChart
            statusType={status}
            errorText={TEXT.loadFailed}
            onRecoveryClick={() => void query.refetch()}
            hideFilter
            height={220}
            ariaLabel={titles.lagAria}
            ariaDescription={TEXT.lagDescription}
            xTitle={TEXT.hour}
            yTitle={TEXT.seconds}
            xScaleType="categorical"
            xDomain={labels}
            series={
              hours.some((hour) => hour.lagP95Ms !== null)
                ? [
                    {
                      title: titles.lag,
                      type: 'line' as const,
                      valueFormatter: (seconds: number) => `≤ ${seconds} s`,
                      // Every hour, so the line is drawn even with one scheduled hour: an hour
                      // without scheduled calls reads 0 (the table says '—').
                      data: hours.map((hour, index) => ({
                        x: labels[index] ?? '',
                        y: (hour.lagP95Ms ?? 0) / 1000,
                      })),
                    },
                  ]
                : []
            }
            empty={
              <Box textAlign="center" color="inherit">
                {TEXT.empty}
              </Box>
            }
          />
        </div>
        <ExpandableSection headerText={TEXT.tableToggle}>
          <HoursTable hours={hours} lagTitle={titles.lag} />
        </ExpandableSection>
      </SpaceBetween>
    </Container>
  );
}
