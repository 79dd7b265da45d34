import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import type { AuditEntry } from '../../../../shared';
import { useAuditPages } from '../../api/audit';
import { formatDateTime } from '../../format/dates';
import { ResponsiveTable } from '../../layout/responsive-table';
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
  const { query, pages } = useAuditPages(TEXT.moreFailed);
  const entries = pages.flatMap((page) => page.entries);

  return (
    <ResponsiveTable<AuditEntry>
      header={
        <Header variant="h2" description={TEXT.description}>
          {TEXT.title}
        </Header>
      }
      items={entries}
      trackBy="id"
      loading={query.isPending}
      loadingText={TEXT.loading}
      columnDefinitions={[
        { id: 'at', header: TEXT.columns.at, cell: (entry) => formatDateTime(entry.at) },
        { id: 'entry', header: TEXT.columns.entry, cell: auditSentence },
      ]}
      empty={
        <Box textAlign="center" color="inherit">
          {query.error && pages.length === 0 ? query.error.message : TEXT.empty}
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
