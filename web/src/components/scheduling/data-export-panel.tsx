import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { useState } from 'react';

import type { DataExport } from '../../../../shared/schemas/data-export';
import { ApiHttpError, endedSession } from '../../api/api-errors';
import { useDataExport, useStartDataExport } from '../../api/billing';
import { formatDateTime } from '../../format/dates';
import { REPORTS_TEXT } from './strings';

const TEXT = REPORTS_TEXT.dataExport;

function ExportState({ current }: { readonly current: DataExport }) {
  switch (current.status) {
    case 'building':
      return (
        <StatusIndicator type="in-progress">
          {TEXT.building(formatDateTime(current.requestedAt))}
        </StatusIndicator>
      );
    case 'ready':
      return (
        <SpaceBetween size="xs">
          <StatusIndicator type="success">
            {TEXT.ready(formatDateTime(current.expiresAt ?? current.requestedAt))}
          </StatusIndicator>
          {current.downloadUrl && (
            <Button
              variant="primary"
              iconName="download"
              href={current.downloadUrl}
              download={current.fileName}
            >
              {TEXT.download}
              {current.sizeBytes === null ? '' : ` (${TEXT.size(current.sizeBytes)})`}
            </Button>
          )}
        </SpaceBetween>
      );
    case 'failed':
      return <StatusIndicator type="error">{TEXT.failed}</StatusIndicator>;
    case 'expired':
      return <StatusIndicator type="stopped">{TEXT.expired}</StatusIndicator>;
  }
}

/**
 * Why the state could not be read: the server's own words when it refused (a licence without a
 * profile is told to complete its account first), else that it could not be loaded.
 */
function LoadFailure({ error }: { readonly error: unknown }) {
  if (error instanceof ApiHttpError && error.status === 404 && error.serverMessage)
    return <StatusIndicator type="info">{error.serverMessage}</StatusIndicator>;
  return <StatusIndicator type="error">{TEXT.loadFailed}</StatusIndicator>;
}

/**
 * 'Exporter mes données': a firm's data as a ZIP built in the background, then a download link
 * valid one hour. A lawyer or notary exports his own firm; the admin names the lawyer
 * (`lawyer`). The server asks the second factor again when it is due (the API client shows the
 * dialog) and audits the export.
 */
export function DataExportPanel({
  lawyer,
}: {
  /** The admin's choice of firm; absent for the signed-in member's own. */
  readonly lawyer?: { readonly id: string; readonly name: string };
}) {
  const query = useDataExport(lawyer?.id);
  const startExport = useStartDataExport(lawyer?.id);
  const [error, setError] = useState<string | null>(null);
  const current = query.data?.export ?? null;
  const building = current?.status === 'building';
  const reload = () => void query.refetch();

  const start = async () => {
    setError(null);
    try {
      await startExport.mutateAsync();
    } catch (failure) {
      if (!endedSession(failure)) setError(failure instanceof Error ? failure.message : TEXT.startFailed);
    }
  };

  return (
    <Container
      header={
        <Header
          variant="h2"
          description={TEXT.description}
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              {building && <Button iconName="refresh" ariaLabel={TEXT.loading} onClick={reload} />}
              <Button loading={startExport.isPending} disabled={building} onClick={() => void start()}>
                {lawyer ? TEXT.startOf : current ? TEXT.again : TEXT.start}
              </Button>
            </SpaceBetween>
          }
        >
          {lawyer ? TEXT.titleOf(lawyer.name) : TEXT.title}
        </Header>
      }
    >
      <SpaceBetween size="s">
        {query.isPending ? (
          <StatusIndicator type="loading">{TEXT.loading}</StatusIndicator>
        ) : query.isError && !query.data ? (
          <LoadFailure error={query.error} />
        ) : current ? (
          <ExportState current={current} />
        ) : (
          <Box color="text-body-secondary">{TEXT.none}</Box>
        )}
        {error && <Alert type="error">{error}</Alert>}
      </SpaceBetween>
    </Container>
  );
}
