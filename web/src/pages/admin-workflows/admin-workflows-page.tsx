import { useCollection } from '@cloudscape-design/collection-hooks';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards from '@cloudscape-design/components/cards';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Header from '@cloudscape-design/components/header';
import Pagination from '@cloudscape-design/components/pagination';
import Skeleton from '@cloudscape-design/components/skeleton';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Tabs from '@cloudscape-design/components/tabs';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState } from 'react';
import { useLocation } from 'react-router';

import { type Folder, MESSAGES, type Workflow } from '../../../../shared';
import { callApi } from '../../api/api-client';
import { endedSession } from '../../api/api-errors';
import { READ_PAGE, usePagedList } from '../../api/paged-list';
import { ConfirmDeleteModal } from '../../components/dialogs/confirm-delete-modal';
import { useWorkflowChanges } from '../../components/workflows/health-store';
import { usePageTitle } from '../../layout/use-page-title';
import { useNotifications } from '../../notifications/notifications-context';
import { STRINGS } from '../../strings';
import { AddToFolderDialog } from './add-to-folder-dialog';
import { AutomationDialog } from './automation-dialog';
import { FolderDialog } from './folder-dialog';
import { FoldersTab } from './folders-tab';
import { ADMIN_WORKFLOWS_TEXT as TEXT } from './strings';
import { adminWorkflowCard, type WorkflowCardActions } from './workflow-card';
import { matchesWorkflow } from './workflow-search';

/** Cards on one page of the all tab: the DOM stays this size whatever the number of automations. */
const WORKFLOWS_PER_PAGE = 12;

/** The dialog open on the page, if any. */
type Dialog =
  | { kind: 'automation'; workflow?: Workflow; folderId?: string | null }
  | { kind: 'folder'; folder?: Folder }
  | { kind: 'add-to-folder'; folder: Folder }
  | { kind: 'delete-workflow'; workflow: Workflow }
  | { kind: 'delete-folder'; folder: Folder };

/**
 * What the all tab shows while the automations load (spec §2 "a skeleton"). The installed
 * Cloudscape ships `Skeleton`, so the placeholders take the shape of the cards to come instead
 * of Cards' own `loading` text; the skeletons are silent to assistive technology, hence the
 * loading StatusIndicator that announces the wait.
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
 * 'Gestion des Automatisations' (/admin/workflows and /admin/workflows-new, spec §2): every
 * automation as cards with a search, and the client folders with their automations.
 */
export function AdminWorkflowsPage() {
  usePageTitle(TEXT.title);
  const notifications = useNotifications();
  // Pages come newest first from the server; the first shows at once, the others follow.
  const workflows = usePagedList(READ_PAGE.workflows);
  const folders = usePagedList(READ_PAGE.folders);
  const lawyers = usePagedList(async (query, signal) => {
    try {
      return await READ_PAGE.lawyers(query, signal);
    } catch (error) {
      if (!signal.aborted && !endedSession(error)) notifications.error(MESSAGES.workflow.lawyersLoadFailed);
      throw error;
    }
  });
  const [tab, setTab] = useState<'all' | 'folders'>('all');
  const [selectedFolderId, setSelectedFolderId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const replaceWorkflow = (saved: Workflow) =>
    workflows.setData((current) =>
      current?.some((workflow) => workflow.id === saved.id)
        ? current.map((workflow) => (workflow.id === saved.id ? saved : workflow))
        : [saved, ...(current ?? [])],
    );
  // 'Reprendre' on a card turns scheduling back on, a pause turns it off: the card follows at once.
  useWorkflowChanges(workflows.setData);

  const toggle = async (workflow: Workflow, flag: 'active' | 'scheduling') => {
    try {
      const saved = await callApi(flag === 'active' ? 'toggleWorkflowActive' : 'toggleWorkflowScheduling', {
        params: { id: workflow.id },
      });
      replaceWorkflow(saved);
      if (flag === 'active') {
        notifications.success(saved.active ? MESSAGES.workflow.activated : MESSAGES.workflow.deactivated);
      } else {
        notifications.success(
          saved.cronSettings.enabled
            ? MESSAGES.workflow.schedulingEnabled
            : MESSAGES.workflow.schedulingDisabled,
        );
      }
    } catch {
      notifications.error(
        flag === 'active' ? MESSAGES.workflow.toggleActiveFailed : MESSAGES.workflow.toggleSchedulingFailed,
      );
    }
  };

  const cardActions: WorkflowCardActions = {
    edit: (workflow) => setDialog({ kind: 'automation', workflow }),
    remove: (workflow) => setDialog({ kind: 'delete-workflow', workflow }),
    toggleActive: (workflow) => void toggle(workflow, 'active'),
    toggleScheduling: (workflow) => void toggle(workflow, 'scheduling'),
  };

  const deleteWorkflow = async (workflow: Workflow) => {
    try {
      await callApi('deleteWorkflow', { params: { id: workflow.id } });
      workflows.setData((current) => current?.filter((item) => item.id !== workflow.id));
      notifications.success(MESSAGES.workflow.deleted);
      setDialog(null);
    } catch {
      notifications.error(MESSAGES.workflow.deleteFailed);
    }
  };

  const deleteFolder = async (folder: Folder) => {
    try {
      await callApi('deleteFolder', { params: { id: folder.id } });
      folders.setData((current) => current?.filter((item) => item.id !== folder.id));
      // Its workflows stay, without a folder (spec §4).
      workflows.setData((current) =>
        current?.map((workflow) =>
          workflow.folderId === folder.id ? { ...workflow, folderId: null } : workflow,
        ),
      );
      if (selectedFolderId === folder.id) setSelectedFolderId(null);
      notifications.success(TEXT.deleteFolder.deleted);
      setDialog(null);
    } catch {
      notifications.error(TEXT.deleteFolder.failed);
    }
  };

  const { search } = useLocation();
  const allWorkflows = workflows.data ?? [];
  const selectedFolder = folders.data?.find((folder) => folder.id === selectedFolderId) ?? null;
  // The search runs over the automations loaded so far; the rest follow within a few requests,
  // and the search box says so until they are all in.
  const collection = useCollection(allWorkflows, {
    filtering: {
      filteringFunction: (workflow, text) => matchesWorkflow(workflow, text),
      // A link from the health dashboard or an alert names the automation to show.
      defaultFilteringText: new URLSearchParams(search).get('recherche') ?? '',
    },
    pagination: { pageSize: WORKFLOWS_PER_PAGE },
  });
  const query = collection.filterProps.filteringText;
  const countLabel = workflows.complete ? `(${allWorkflows.length})` : `(${allWorkflows.length}+)`;
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
      header={
        <Header variant="h1" description={TEXT.description} actions={headerActions}>
          {TEXT.title}
        </Header>
      }
    >
      <Tabs
        activeTabId={tab}
        onChange={({ detail }) => setTab(detail.activeTabId as 'all' | 'folders')}
        tabs={[
          {
            id: 'all',
            label: TEXT.tabs.all,
            content:
              workflows.loading && !workflows.data ? (
                <CardsSkeleton />
              ) : (
                <Cards<Workflow>
                  {...collection.collectionProps}
                  items={collection.items}
                  trackBy="id"
                  cardDefinition={adminWorkflowCard(lawyers.data ?? [], cardActions)}
                  cardsPerRow={[{ cards: 1 }, { minWidth: 700, cards: 2 }, { minWidth: 1200, cards: 3 }]}
                  header={
                    <Header
                      counter={countLabel}
                      description={workflows.complete ? undefined : TEXT.stillLoading(allWorkflows.length)}
                    >
                      {TEXT.tabs.all}
                    </Header>
                  }
                  filter={
                    <TextFilter
                      {...collection.filterProps}
                      filteringPlaceholder={
                        workflows.complete ? TEXT.search : TEXT.searchLoaded(allWorkflows.length)
                      }
                      filteringAriaLabel={TEXT.search}
                      countText={
                        query
                          ? workflows.complete
                            ? TEXT.matches(collection.filteredItemsCount ?? 0)
                            : TEXT.matchesLoaded(collection.filteredItemsCount ?? 0, allWorkflows.length)
                          : undefined
                      }
                    />
                  }
                  pagination={
                    <Pagination {...collection.paginationProps} ariaLabels={STRINGS.lists.pagination} />
                  }
                  empty={
                    <Box textAlign="center" color="inherit">
                      {workflows.error ? (
                        <Box variant="p">{MESSAGES.workflow.listLoadFailed}</Box>
                      ) : query ? (
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
              ),
          },
          {
            id: 'folders',
            label: TEXT.tabs.folders,
            content: (
              <FoldersTab
                folders={folders.data ?? []}
                workflows={allWorkflows}
                complete={workflows.complete && folders.complete}
                lawyers={lawyers.data ?? []}
                loading={folders.loading && !folders.data}
                selectedId={selectedFolderId}
                onSelect={(folder) => setSelectedFolderId(folder.id)}
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
          lawyers={lawyers.data ?? []}
          lawyersLoading={lawyers.loading && !lawyers.data}
          folders={folders.data ?? []}
          onSaved={(saved) => {
            replaceWorkflow(saved);
            setDialog(null);
          }}
          onDismiss={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'add-to-folder' && (
        <AddToFolderDialog
          folder={dialog.folder}
          folders={folders.data ?? []}
          workflows={allWorkflows}
          lawyers={lawyers.data ?? []}
          onMoved={replaceWorkflow}
          onCreateNew={() => setDialog({ kind: 'automation', folderId: dialog.folder.id })}
          onDismiss={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'folder' && (
        <FolderDialog
          folder={dialog.folder}
          onSaved={(saved) => {
            folders.setData((current) =>
              current?.some((folder) => folder.id === saved.id)
                ? current.map((folder) => (folder.id === saved.id ? saved : folder))
                : [saved, ...(current ?? [])],
            );
            setSelectedFolderId(saved.id);
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
          onConfirm={() => deleteWorkflow(dialog.workflow)}
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
          onConfirm={() => deleteFolder(dialog.folder)}
          onDismiss={() => setDialog(null)}
        >
          {TEXT.deleteFolder.body(dialog.folder.name)}
        </ConfirmDeleteModal>
      )}
    </ContentLayout>
  );
}
