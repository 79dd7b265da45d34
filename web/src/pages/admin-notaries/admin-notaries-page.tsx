import Box from '@cloudscape-design/components/box';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Pagination from '@cloudscape-design/components/pagination';
import { useState } from 'react';
import { type Lawyer, MESSAGES } from '../../../../shared';
import { DirectoryHeader, DirectorySearch } from '../../components/lawyer-details/directory-list';
import { type LawyerDialog, LawyerDialogs } from '../../components/lawyer-details/lawyer-dialogs';
import { useLawyerDirectory } from '../../components/lawyer-details/use-lawyer-directory';
import { PageHeader } from '../../layout/page-header';
import { ResponsiveTable } from '../../layout/responsive-table';
import { STRINGS } from '../../strings';
import { notaryColumns } from './notary-columns-config';
import { ADMIN_NOTARIES_TEXT as TEXT } from './strings';

/** Rows on one page: the DOM stays this size whatever the number of notaries. */
const NOTARIES_PER_PAGE = 20;

/**
 * 'Gestion des Notaires' (/admin/notaries, spec §2). Lawyers and notaries share one profile table
 * (spec §3 "Lawyer / Notary profile"; §1: "some admin wording … call them notaries"), so this is
 * the same directory as /admin/lawyers, shown as a table with the Google OAuth column.
 */
export function AdminNotariesPage() {
  const directory = useLawyerDirectory({
    pageSize: NOTARIES_PER_PAGE,
    loadFailed: MESSAGES.directory.loadNotariesFailed(),
    deleted: () => MESSAGES.directory.notaryDeleted,
    deleteFailed: MESSAGES.directory.deleteNotaryFailed,
  });
  const [dialog, setDialog] = useState<LawyerDialog | null>(null);
  const remove = (lawyer: Lawyer) =>
    directory.remove(lawyer).then(
      () => setDialog(null),
      () => undefined,
    );
  const { lawyers } = directory;

  return (
    <ContentLayout header={<PageHeader title={TEXT.title} description={TEXT.description} />}>
      <ResponsiveTable<Lawyer>
        items={directory.items}
        pagination={<Pagination {...lawyers.pagination} ariaLabels={STRINGS.lists.pagination} />}
        trackBy="id"
        loading={lawyers.loading}
        loadingText={TEXT.loading}
        header={<DirectoryHeader title={TEXT.title} total={directory.total} />}
        filter={<DirectorySearch directory={directory} label={TEXT.search} />}
        // The Actions column stays in view while the others scroll on a narrow screen.
        stickyColumns={{ first: 0, last: 1 }}
        columnDefinitions={notaryColumns({
          details: (lawyer) => setDialog({ kind: 'details', lawyer }),
          remove: (lawyer) => setDialog({ kind: 'delete', lawyer }),
        })}
        empty={
          <Box textAlign="center" color="inherit">
            {lawyers.query.isError ? MESSAGES.directory.loadNotariesFailed() : TEXT.empty}
          </Box>
        }
      />
      <LawyerDialogs
        dialog={dialog}
        variant="notary"
        deleteTexts={TEXT}
        onDelete={remove}
        onClose={() => setDialog(null)}
      />
    </ContentLayout>
  );
}
