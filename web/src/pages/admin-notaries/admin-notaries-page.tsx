import { useCollection } from '@cloudscape-design/collection-hooks';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState } from 'react';

import { type Lawyer, MESSAGES } from '../../../../shared';
import { callApi } from '../../api/api-client';
import { endedSession } from '../../api/api-errors';
import { READ_PAGE, usePagedList } from '../../api/paged-list';
import { type LawyerDialog, LawyerDialogs } from '../../components/lawyer-details/lawyer-dialogs';
import { matchesLawyer } from '../../components/lawyer-details/lawyer-search';
import { formatDate } from '../../format/dates';
import { usePageTitle } from '../../layout/use-page-title';
import { useNotifications } from '../../notifications/notifications-context';
import { STRINGS } from '../../strings';
import { ADMIN_NOTARIES_TEXT as TEXT } from './strings';

const fullName = (lawyer: Lawyer) => `${lawyer.firstName} ${lawyer.lastName}`;

/** Rows on one page: the DOM stays this size whatever the number of notaries. */
const NOTARIES_PER_PAGE = 20;

/**
 * 'Gestion des Notaires' (/admin/notaries, spec §2). Lawyers and notaries share one profile table
 * (spec §3 "Lawyer / Notary profile"; §1: "some admin wording … call them notaries"), so this is
 * the same directory as /admin/lawyers, shown as a table with the Google OAuth column.
 */
export function AdminNotariesPage() {
  usePageTitle(TEXT.title);
  const notifications = useNotifications();
  const notaries = usePagedList(async (page, signal) => {
    try {
      return await READ_PAGE.lawyers(page, signal);
    } catch (error) {
      if (!signal.aborted && !endedSession(error)) {
        notifications.error(
          MESSAGES.directory.loadNotariesFailed(error instanceof Error ? error.message : undefined),
        );
      }
      throw error;
    }
  });
  const [query, setQuery] = useState('');
  const [dialog, setDialog] = useState<LawyerDialog | null>(null);

  const remove = async (lawyer: Lawyer) => {
    try {
      await callApi('deleteLawyer', { params: { id: lawyer.id } });
      notaries.setData((current) => current?.filter((item) => item.id !== lawyer.id));
      notifications.success(MESSAGES.directory.notaryDeleted);
      setDialog(null);
    } catch {
      notifications.error(MESSAGES.directory.deleteNotaryFailed);
    }
  };

  const all = notaries.data ?? [];
  const shown = all.filter((lawyer) => matchesLawyer(lawyer, query, ['firstName', 'lastName', 'email']));
  const pages = useCollection(shown, { pagination: { pageSize: NOTARIES_PER_PAGE } });

  return (
    <ContentLayout
      header={
        <Header variant="h1" description={TEXT.description}>
          {TEXT.title}
        </Header>
      }
    >
      <Table<Lawyer>
        items={pages.items}
        pagination={<Pagination {...pages.paginationProps} ariaLabels={STRINGS.lists.pagination} />}
        trackBy="id"
        loading={notaries.loading && !notaries.data}
        loadingText={TEXT.loading}
        header={
          <Header
            counter={notaries.complete ? `(${all.length})` : `(${all.length}+)`}
            description={notaries.complete ? undefined : STRINGS.lists.stillLoading(all.length)}
          >
            {TEXT.title}
          </Header>
        }
        filter={
          <TextFilter
            filteringText={query}
            filteringPlaceholder={TEXT.search}
            filteringAriaLabel={TEXT.search}
            onChange={({ detail }) => setQuery(detail.filteringText)}
          />
        }
        // The Actions column stays in view while the others scroll on a narrow screen.
        stickyColumns={{ first: 0, last: 1 }}
        columnDefinitions={[
          { id: 'name', header: TEXT.columns.name, cell: fullName },
          { id: 'email', header: TEXT.columns.email, cell: (lawyer) => lawyer.email },
          {
            id: 'google',
            header: TEXT.columns.googleOAuth,
            cell: (lawyer) =>
              lawyer.hasGoogleCredentials ? (
                <Badge color="green">{TEXT.configured}</Badge>
              ) : (
                <Badge color="grey">{TEXT.notConfigured}</Badge>
              ),
          },
          { id: 'createdAt', header: TEXT.columns.createdAt, cell: (lawyer) => formatDate(lawyer.createdAt) },
          {
            id: 'actions',
            header: TEXT.columns.actions,
            cell: (lawyer) => (
              <SpaceBetween direction="horizontal" size="xxs">
                <Button
                  variant="inline-icon"
                  iconName="search"
                  ariaLabel={TEXT.detailsOf(fullName(lawyer))}
                  onClick={() => setDialog({ kind: 'details', lawyer })}
                />
                <Button
                  variant="inline-icon"
                  iconName="remove"
                  ariaLabel={TEXT.deleteOf(fullName(lawyer))}
                  onClick={() => setDialog({ kind: 'delete', lawyer })}
                />
              </SpaceBetween>
            ),
          },
        ]}
        empty={
          <Box textAlign="center" color="inherit">
            {notaries.error ? MESSAGES.directory.loadNotariesFailed() : TEXT.empty}
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
