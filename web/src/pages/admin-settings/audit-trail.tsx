import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Table from '@cloudscape-design/components/table';
import { useState } from 'react';

import type { AuditEntry } from '../../../../shared';
import { callApi } from '../../api/api-client';
import { endedSession } from '../../api/api-errors';
import { useApiQuery } from '../../api/use-api-query';
import { formatDateTime } from '../../format/dates';
import { useNotifications } from '../../notifications/notifications-context';
import { ADMIN_SETTINGS_TEXT } from './strings';

const TEXT = ADMIN_SETTINGS_TEXT.audit;

/**
 * One French sentence per entry: who, did what, to whom or what ("L'administrateur a@b.fr a
 * supprimé l'avocat Camille Martin (camille@…)"), from the names the entry kept.
 */
export function auditSentence(entry: AuditEntry): string {
  const author = TEXT.authors[entry.actorEmail] ?? TEXT.adminAuthor(entry.actorEmail);
  const verb = TEXT.verbs[entry.action] ?? entry.action;
  return `${author} ${verb} ${entry.targetLabel ?? TEXT.unnamed(entry.target)}`;
}

/** The audit trail, newest first, a page at a time ('Charger plus'). */
export function AuditTrail() {
  const notifications = useNotifications();
  const first = useApiQuery((signal) => callApi('listAudit', { signal }));
  const [more, setMore] = useState<{ entries: AuditEntry[]; cursor: string | null } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const entries = [...(first.data?.entries ?? []), ...(more?.entries ?? [])];
  const cursor = more ? more.cursor : (first.data?.nextCursor ?? null);

  const loadMore = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const page = await callApi('listAudit', { query: { cursor } });
      setMore((current) => ({
        entries: [...(current?.entries ?? []), ...page.entries],
        cursor: page.nextCursor,
      }));
    } catch (error) {
      // The entries shown stay; the button stays too, for another try.
      if (!endedSession(error)) notifications.error(error instanceof Error ? error.message : TEXT.moreFailed);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <Table<AuditEntry>
      header={
        <Header variant="h2" description={TEXT.description}>
          {TEXT.title}
        </Header>
      }
      items={entries}
      trackBy="id"
      loading={first.loading && !first.data}
      loadingText={TEXT.loading}
      columnDefinitions={[
        { id: 'at', header: TEXT.columns.at, cell: (entry) => formatDateTime(entry.at) },
        { id: 'entry', header: TEXT.columns.entry, cell: auditSentence },
      ]}
      empty={
        <Box textAlign="center" color="inherit">
          {first.error ? first.error.message : TEXT.empty}
        </Box>
      }
      footer={
        cursor && (
          <Box textAlign="center">
            <Button loading={loadingMore} onClick={() => void loadMore()}>
              {TEXT.more}
            </Button>
          </Box>
        )
      }
    />
  );
}
