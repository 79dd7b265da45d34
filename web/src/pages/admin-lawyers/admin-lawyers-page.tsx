import { useCollection } from '@cloudscape-design/collection-hooks';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards from '@cloudscape-design/components/cards';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import Modal from '@cloudscape-design/components/modal';
import Pagination from '@cloudscape-design/components/pagination';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState } from 'react';

import { type Lawyer, type LawyerSaveRequest, MESSAGES } from '../../../../shared';
import { callApi } from '../../api/api-client';
import { READ_PAGE, usePagedList } from '../../api/paged-list';
import { type LawyerDialog, LawyerDialogs } from '../../components/lawyer-details/lawyer-dialogs';
import { matchesLawyer } from '../../components/lawyer-details/lawyer-search';
import { LawyerForm, lawyerFormValues } from '../../components/lawyer-form/lawyer-form';
import { formatDate } from '../../format/dates';
import { usePageTitle } from '../../layout/use-page-title';
import { useNotifications } from '../../notifications/notifications-context';
import { STRINGS } from '../../strings';
import { ADMIN_LAWYERS_TEXT as TEXT } from './strings';

type Dialog = { kind: 'create' } | LawyerDialog;

/** Cards on one page: the DOM stays this size whatever the number of lawyers. */
const LAWYERS_PER_PAGE = 12;

const fullName = (lawyer: Lawyer) => `${lawyer.firstName} ${lawyer.lastName}`;

/**
 * 'Consultation des Avocats' (/admin/lawyers, spec §2): the lawyers as cards with a search,
 * their details (secrets on an audited request), deletion of a lawyer and all his data, and the
 * creation of a new lawyer with his licence key.
 */
export function AdminLawyersPage() {
  usePageTitle(TEXT.title);
  const notifications = useNotifications();
  const lawyers = usePagedList(READ_PAGE.lawyers);
  const [query, setQuery] = useState('');
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const create = async (request: LawyerSaveRequest) => {
    try {
      const { lawyer } = await callApi('saveLawyer', { body: request });
      lawyers.setData((current) => [lawyer, ...(current ?? []).filter((item) => item.id !== lawyer.id)]);
      notifications.success(MESSAGES.lawyerSave.created(lawyer.firstName, lawyer.lastName));
      setDialog(null);
    } catch (error) {
      notifications.error(
        error instanceof Error && error.message
          ? MESSAGES.lawyerSave.createFailed(error.message)
          : MESSAGES.lawyerSave.saveFailed,
      );
    }
  };

  const remove = async (lawyer: Lawyer) => {
    try {
      await callApi('deleteLawyer', { params: { id: lawyer.id } });
      lawyers.setData((current) => current?.filter((item) => item.id !== lawyer.id));
      notifications.success(MESSAGES.directory.lawyerDeleted(fullName(lawyer)));
      setDialog(null);
    } catch {
      notifications.error(MESSAGES.directory.deleteLawyerFailed);
    }
  };

  const all = lawyers.data ?? [];
  const shown = all.filter((lawyer) =>
    matchesLawyer(lawyer, query, ['firstName', 'lastName', 'email', 'officeName']),
  );
  const pages = useCollection(shown, { pagination: { pageSize: LAWYERS_PER_PAGE } });

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={TEXT.description}
          actions={
            <Button variant="primary" iconName="add-plus" onClick={() => setDialog({ kind: 'create' })}>
              {TEXT.newLawyer}
            </Button>
          }
        >
          {TEXT.title}
        </Header>
      }
    >
      <Cards<Lawyer>
        items={pages.items}
        pagination={<Pagination {...pages.paginationProps} ariaLabels={STRINGS.lists.pagination} />}
        trackBy="id"
        loading={lawyers.loading && !lawyers.data}
        loadingText={TEXT.loading}
        cardsPerRow={[{ cards: 1 }, { minWidth: 700, cards: 2 }, { minWidth: 1200, cards: 3 }]}
        header={
          <Header
            counter={lawyers.complete ? `(${all.length})` : `(${all.length}+)`}
            description={lawyers.complete ? undefined : STRINGS.lists.stillLoading(all.length)}
          >
            {TEXT.title}
          </Header>
        }
        filter={
          <TextFilter
            filteringText={query}
            filteringPlaceholder={TEXT.search}
            filteringAriaLabel={TEXT.search}
            countText={query ? TEXT.matches(shown.length) : undefined}
            onChange={({ detail }) => setQuery(detail.filteringText)}
          />
        }
        cardDefinition={{
          header: (lawyer) => fullName(lawyer),
          sections: [
            {
              id: 'google',
              content: (lawyer) =>
                lawyer.hasGooglePassword ? (
                  <Badge color="green">{TEXT.googlePasswordSet}</Badge>
                ) : (
                  <Badge color="grey">{TEXT.googlePasswordMissing}</Badge>
                ),
            },
            { id: 'email', header: TEXT.email, content: (lawyer) => lawyer.email },
            { id: 'office', header: TEXT.office, content: (lawyer) => lawyer.officeName ?? '—' },
            {
              id: 'mainEmail',
              header: TEXT.mainEmail,
              content: (lawyer) => (lawyer.mainEmail !== lawyer.email ? lawyer.mainEmail : null),
            },
            {
              id: 'licenseKey',
              header: TEXT.licenseKey,
              content: (lawyer) => <Box variant="code">{lawyer.licenseKey ?? TEXT.noLicenseKey}</Box>,
            },
            { id: 'createdAt', header: TEXT.createdAt, content: (lawyer) => formatDate(lawyer.createdAt) },
            {
              id: 'actions',
              content: (lawyer) => (
                <SpaceBetween direction="horizontal" size="xs">
                  <Button
                    ariaLabel={TEXT.detailsOf(fullName(lawyer))}
                    onClick={() => setDialog({ kind: 'details', lawyer })}
                  >
                    {TEXT.details}
                  </Button>
                  <Button
                    ariaLabel={TEXT.deleteOf(fullName(lawyer))}
                    onClick={() => setDialog({ kind: 'delete', lawyer })}
                  >
                    {TEXT.delete}
                  </Button>
                </SpaceBetween>
              ),
            },
          ],
        }}
        empty={
          <Box textAlign="center" color="inherit">
            {lawyers.error ? lawyers.error.message : MESSAGES.directory.noLawyerFound}
          </Box>
        }
      />

      {dialog?.kind === 'create' && (
        <Modal visible size="large" header={TEXT.createTitle} onDismiss={() => setDialog(null)}>
          <LawyerForm
            variant="lawyer"
            initial={lawyerFormValues(null)}
            showLicenseKey
            submitLabel={TEXT.create}
            onSubmit={create}
            onCancel={() => setDialog(null)}
          />
        </Modal>
      )}
      <LawyerDialogs
        dialog={dialog?.kind === 'create' ? null : dialog}
        variant="lawyer"
        deleteTexts={TEXT}
        onDelete={remove}
        onClose={() => setDialog(null)}
      />
    </ContentLayout>
  );
}
