import Box from '@cloudscape-design/components/box';
import Cards from '@cloudscape-design/components/cards';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import Grid from '@cloudscape-design/components/grid';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Pagination from '@cloudscape-design/components/pagination';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState } from 'react';
import type { Folder, Workflow } from '../../../../shared';
import { useCounts, useFolderPages, useWorkflowPages } from '../../api/directory';
import { ShownWorkflowsHealth } from '../../components/workflows/workflow-health';
import { ResponsiveTable } from '../../layout/responsive-table';
import { useDebounced } from '../../layout/use-debounced';
import { STRINGS } from '../../strings';
import { folderColumns } from './folder-columns-config';
import { ADMIN_WORKFLOWS_TEXT } from './strings';
import { adminWorkflowCard, type WorkflowCardActions } from './workflow-cards-config';

const TEXT = ADMIN_WORKFLOWS_TEXT.folders;

/** Automations on one page of a folder's panel. */
const FOLDER_PAGE_SIZE = 10;

export interface FoldersTabProps {
  /** Whether the tab shows: its lists are read only then. */
  readonly active: boolean;
  readonly selected: Folder | null;
  readonly onSelect: (folder: Folder) => void;
  readonly onEdit: (folder: Folder) => void;
  readonly onDelete: (folder: Folder) => void;
  readonly cardActions: WorkflowCardActions;
}

/** The selected folder: its counters (kept by the server) and its automations, a page at a time. */
function FolderPanel({
  folder,
  cardActions,
}: {
  readonly folder: Folder;
  readonly cardActions: WorkflowCardActions;
}) {
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim());
  const workflows = useWorkflowPages({ limit: FOLDER_PAGE_SIZE, folderId: folder.id, q });
  const items = workflows.page?.workflows ?? [];
  return (
    <SpaceBetween size="m">
      <Container header={<Header description={folder.description ?? undefined}>{folder.name}</Header>}>
        <ColumnLayout columns={1}>
          <KeyValuePairs
            columns={3}
            items={[
              { label: TEXT.total, value: folder.counts.total },
              { label: TEXT.actives, value: folder.counts.active },
              { label: TEXT.scheduled, value: folder.counts.scheduled },
            ]}
          />
        </ColumnLayout>
      </Container>
      <ShownWorkflowsHealth ids={items.map((workflow) => workflow.id)}>
        <Cards<Workflow>
          items={items}
          loading={workflows.loading}
          loadingText={ADMIN_WORKFLOWS_TEXT.loading}
          trackBy="id"
          cardDefinition={adminWorkflowCard(workflows.page?.owners ?? [], cardActions, true)}
          cardsPerRow={[{ cards: 1 }, { minWidth: 600, cards: 2 }]}
          filter={
            <TextFilter
              filteringText={query}
              filteringPlaceholder={ADMIN_WORKFLOWS_TEXT.searchInFolder}
              filteringAriaLabel={ADMIN_WORKFLOWS_TEXT.searchInFolder}
              onChange={({ detail }) => setQuery(detail.filteringText)}
            />
          }
          pagination={<Pagination {...workflows.pagination} ariaLabels={STRINGS.lists.pagination} />}
          empty={
            <Box textAlign="center" color="inherit">
              {q ? ADMIN_WORKFLOWS_TEXT.noMatch : TEXT.emptyFolder}
            </Box>
          }
        />
      </ShownWorkflowsHealth>
    </SpaceBetween>
  );
}

/** 'Clients & Dossiers': the folder list on the left, the selected folder's workflows on the right. */
export function FoldersTab({ active, selected, onSelect, onEdit, onDelete, cardActions }: FoldersTabProps) {
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim());
  const folders = useFolderPages(q, active);
  const counts = useCounts();
  const items = folders.page?.folders ?? [];
  // The selected folder as the list now has it (its counters follow every change).
  const shown = items.find((folder) => folder.id === selected?.id) ?? selected;

  return (
    <Grid gridDefinition={[{ colspan: { default: 12, s: 5 } }, { colspan: { default: 12, s: 7 } }]}>
      <ResponsiveTable<Folder>
        header={
          <Header counter={counts?.folders == null ? undefined : `(${STRINGS.lists.count(counts.folders)})`}>
            {TEXT.title}
          </Header>
        }
        items={items}
        loading={folders.loading}
        loadingText={ADMIN_WORKFLOWS_TEXT.loading}
        trackBy="id"
        selectionType="single"
        selectedItems={shown ? [shown] : []}
        onSelectionChange={({ detail }) => detail.selectedItems[0] && onSelect(detail.selectedItems[0])}
        // The whole row opens the folder; the radio stays for the keyboard.
        onRowClick={({ detail }) => onSelect(detail.item)}
        ariaLabels={{
          itemSelectionLabel: (_data, folder) => TEXT.open(folder.name),
          selectionGroupLabel: TEXT.title,
          allItemsSelectionLabel: () => TEXT.title,
        }}
        filter={
          <TextFilter
            filteringText={query}
            filteringPlaceholder={ADMIN_WORKFLOWS_TEXT.searchFolders}
            filteringAriaLabel={ADMIN_WORKFLOWS_TEXT.searchFolders}
            onChange={({ detail }) => setQuery(detail.filteringText)}
          />
        }
        pagination={<Pagination {...folders.pagination} ariaLabels={STRINGS.lists.pagination} />}
        wrapLines
        columnDefinitions={folderColumns({ edit: onEdit, remove: onDelete })}
        empty={
          <Box textAlign="center" color="inherit">
            {q ? (
              TEXT.noMatch
            ) : (
              <>
                <Box variant="strong">{TEXT.empty}</Box>
                <Box variant="p">{TEXT.emptyDetail}</Box>
              </>
            )}
          </Box>
        }
      />
      {shown ? (
        <FolderPanel key={shown.id} folder={shown} cardActions={cardActions} />
      ) : (
        <Container>
          <Box textAlign="center" color="text-body-secondary">
            {TEXT.select}
          </Box>
        </Container>
      )}
    </Grid>
  );
}
