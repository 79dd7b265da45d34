import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards from '@cloudscape-design/components/cards';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import Skeleton from '@cloudscape-design/components/skeleton';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState } from 'react';

import { type Folder, MESSAGES, type Workflow } from '../../../../shared';
import { ConfirmDeleteModal } from '../../components/dialogs/confirm-delete-modal';
import { ShownWorkflowsHealth } from '../../components/workflows/workflow-health';
import { MeasuredTabs } from '../../layout/measured-tabs';
import { PageHeader } from '../../layout/page-header';
import { STRINGS } from '../../strings';
import { AddToFolderDialog } from './add-to-folder-dialog';
import { AutomationDialog } from './automation-dialog';
import { FolderDialog } from './folder-dialog';
import { FoldersTab } from './folders-tab';
import { ADMIN_WORKFLOWS_TEXT as TEXT } from './strings';
import { useAdminWorkflows } from './use-admin-workflows';
import { adminWorkflowCard, type WorkflowCardActions } from './workflow-cards-config';
import { WorkflowFilters } from './workflow-filters';

/** The dialog open on the page, if any. */
type Dialog =
  | { kind: 'automation'; workflow?: Workflow; folderId?: string | null }
  | { kind: 'folder'; folder?: Folder }
  | { kind: 'add-to-folder'; folder: Folder }
  | { kind: 'delete-workflow'; workflow: Workflow }
  | { kind: 'delete-folder'; folder: Folder };

/**
 * What the all tab shows while the automations load (spec §2 "a skeleton"): placeholders in the
 * shape of the cards to come, and a loading StatusIndicator that announces the wait (the
 * skeletons are silent to assistive technology).
 */
function CardsSkeleton() {
  return (
    <SpaceBetween size="m">
      <StatusIndicator type="loading">{TEXT.loading}</StatusIndicator>
      {[0, 1, 2].map((index) => (
        <Box key={index} padding="m">
          <Skeleton variant="text-heading-m" width="40%" />
          <Skeleton variant="text-body-m" width="90%" />
          <Skeleton variant="text-body-m" width="60%" />
        </Box>
      ))}
    </SpaceBetween>
  );
}

/**
 * 'Gestion des Automatisations' (/admin/workflows and /admin/workflows-new, spec §2): the
 * automations as cards, a page at a time, searched on the server; the client folders with their
 * automations.
 */
export function AdminWorkflowsPage() {
  const data = useAdminWorkflows();
  const [tab, setTab] = useState<'all' | 'folders'>('all');
  const [selectedFolder, setSelectedFolder] = useState<Folder | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const { workflows } = data;
  const items = workflows.page?.workflows ?? [];
  const total = data.counts?.workflows.total;

  const cardActions: WorkflowCardActions = {
    edit: (workflow) => setDialog({ kind: 'automation', workflow }),
    remove: (workflow) => setDialog({ kind: 'delete-workflow', workflow }),
    toggleActive: (workflow) => data.toggle(workflow, 'active'),
    toggleScheduling: (workflow) => data.toggle(workflow, 'scheduling'),
  };

  const newWorkflowButton = (
    <Button variant="primary" iconName="add-plus" onClick={() => setDialog({ kind: 'automation' })}>
      {TEXT.newWorkflow}
    </Button>
  );
  const headerActions =
    tab === 'all' ? (
      newWorkflowButton
    ) : (
      <SpaceBetween direction="horizontal" size="xs">
        {selectedFolder && (
          <Button
            iconName="add-plus"
            onClick={() => setDialog({ kind: 'add-to-folder', folder: selectedFolder })}
          >
            {TEXT.addToFolder}
          </Button>
        )}
        <Button variant="primary" iconName="folder" onClick={() => setDialog({ kind: 'folder' })}>
          {TEXT.newFolder}
        </Button>
      </SpaceBetween>
    );

  return (
    <ContentLayout
      header={<PageHeader title={TEXT.title} description={TEXT.description} actions={headerActions} />}
    >
      <MeasuredTabs
        activeTabId={tab}
        onChange={({ detail }) => setTab(detail.activeTabId as 'all' | 'folders')}
        tabs={[
          {
            id: 'all',
            label: TEXT.tabs.all,
            content:
              workflows.loading && !data.searching ? (
                <CardsSkeleton />
              ) : (
                <ShownWorkflowsHealth ids={items.map((workflow) => workflow.id)}>
                  <Cards<Workflow>
                    items={items}
                    loading={workflows.loading}
                    loadingText={TEXT.loading}
                    trackBy="id"
                    cardDefinition={adminWorkflowCard(data.owners, cardActions)}
                    cardsPerRow={[{ cards: 1 }, { minWidth: 700, cards: 2 }, { minWidth: 1200, cards: 3 }]}
                    header={
                      <Header counter={total === undefined ? undefined : `(${STRINGS.lists.count(total)})`}>
                        {TEXT.tabs.all}
                      </Header>
                    }
                    filter={
                      <WorkflowFilters
                        filters={data.filters}
                        onChange={data.setFilters}
                        search={
                          <TextFilter
                            filteringText={data.query}
                            filteringPlaceholder={TEXT.search}
                            filteringAriaLabel={TEXT.search}
                            countText={
                              data.searching && workflows.page
                                ? STRINGS.lists.matches(items.length, workflows.query.hasNextPage)
                                : undefined
                            }
                            onChange={({ detail }) => data.setQuery(detail.filteringText)}
                          />
                        }
                      />
                    }
                    pagination={
                      <Pagination {...workflows.pagination} ariaLabels={STRINGS.lists.pagination} />
                    }
                    empty={
                      <Box textAlign="center" color="inherit">
                        {workflows.query.isError ? (
                          <Box variant="p">{MESSAGES.workflow.listLoadFailed}</Box>
                        ) : data.searching ? (
                          <Box variant="p">{TEXT.noMatch}</Box>
                        ) : (
                          <SpaceBetween size="xs">
                            <Box variant="strong">{TEXT.empty}</Box>
                            <Box variant="p">{TEXT.emptyDetail}</Box>
                            {newWorkflowButton}
                          </SpaceBetween>
                        )}
                      </Box>
                    }
                  />
                </ShownWorkflowsHealth>
              ),
          },
          {
            id: 'folders',
            label: TEXT.tabs.folders,
            content: (
              <FoldersTab
                active={tab === 'folders'}
                selected={selectedFolder}
                onSelect={setSelectedFolder}
                onEdit={(folder) => setDialog({ kind: 'folder', folder })}
                onDelete={(folder) => setDialog({ kind: 'delete-folder', folder })}
                cardActions={cardActions}
              />
            ),
          },
        ]}
      />

      {dialog?.kind === 'automation' && (
        <AutomationDialog
          workflow={dialog.workflow}
          folderId={dialog.folderId}
          onSaved={() => setDialog(null)}
          onDismiss={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'add-to-folder' && (
        <AddToFolderDialog
          folder={dialog.folder}
          onCreateNew={() => setDialog({ kind: 'automation', folderId: dialog.folder.id })}
          onDismiss={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'folder' && (
        <FolderDialog
          folder={dialog.folder}
          onSaved={(saved) => {
            setSelectedFolder(saved);
            setDialog(null);
          }}
          onDismiss={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete-workflow' && (
        <ConfirmDeleteModal
          title={TEXT.deleteWorkflow.title}
          confirmLabel={TEXT.deleteWorkflow.confirm}
          cancelLabel={TEXT.deleteWorkflow.cancel}
          // A failure keeps the dialog open; its toast says so.
          onConfirm={() =>
            data.removeWorkflow(dialog.workflow).then(
              () => setDialog(null),
              () => undefined,
            )
          }
          onDismiss={() => setDialog(null)}
        >
          {TEXT.deleteWorkflow.body(dialog.workflow.name)}
        </ConfirmDeleteModal>
      )}
      {dialog?.kind === 'delete-folder' && (
        <ConfirmDeleteModal
          title={TEXT.deleteFolder.title}
          confirmLabel={TEXT.deleteFolder.confirm}
          cancelLabel={TEXT.deleteFolder.cancel}
          onConfirm={async () => {
            await data.removeFolder(dialog.folder).then(
              () => {
                if (selectedFolder?.id === dialog.folder.id) setSelectedFolder(null);
                setDialog(null);
              },
              () => undefined,
            );
          }}
          onDismiss={() => setDialog(null)}
        >
          {TEXT.deleteFolder.body(dialog.folder.name)}
        </ConfirmDeleteModal>
      )}
    </ContentLayout>
  );
}
