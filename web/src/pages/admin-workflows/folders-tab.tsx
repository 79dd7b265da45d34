import { useCollection } from '@cloudscape-design/collection-hooks';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards from '@cloudscape-design/components/cards';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import Grid from '@cloudscape-design/components/grid';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Pagination from '@cloudscape-design/components/pagination';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState } from 'react';

import type { Folder, Lawyer, Workflow } from '../../../../shared';
import { matchesSearch } from '../../format/search';
import { STRINGS } from '../../strings';
import { ADMIN_WORKFLOWS_TEXT } from './strings';
import { adminWorkflowCard, type WorkflowCardActions } from './workflow-card';
import { matchesWorkflow, workflowCounts } from './workflow-search';

const TEXT = ADMIN_WORKFLOWS_TEXT.folders;

export interface FoldersTabProps {
  readonly folders: readonly Folder[];
  readonly workflows: readonly Workflow[];
  /** False while automations or folders are still loading: the counters then cover those loaded. */
  readonly complete: boolean;
  readonly lawyers: readonly Lawyer[];
  readonly loading: boolean;
  readonly selectedId: string | null;
  readonly onSelect: (folder: Folder) => void;
  readonly onEdit: (folder: Folder) => void;
  readonly onDelete: (folder: Folder) => void;
  readonly cardActions: WorkflowCardActions;
}

/** 'Clients & Dossiers': the folder list on the left, the selected folder's workflows on the right. */
export function FoldersTab({
  folders,
  workflows,
  complete,
  lawyers,
  loading,
  selectedId,
  onSelect,
  onEdit,
  onDelete,
  cardActions,
}: FoldersTabProps) {
  const [folderQuery, setFolderQuery] = useState('');
  const selected = folders.find((folder) => folder.id === selectedId) ?? null;
  const inFolder = (folderId: string) => workflows.filter((workflow) => workflow.folderId === folderId);
  const shownFolders = folders.filter((folder) =>
    matchesSearch(folderQuery, [folder.name, folder.description]),
  );
  const selectedWorkflows = selected ? inFolder(selected.id) : [];
  const counts = workflowCounts(selectedWorkflows);
  const folderCollection = useCollection(selectedWorkflows, {
    filtering: { filteringFunction: (workflow, text) => matchesWorkflow(workflow, text) },
    pagination: { pageSize: 10 },
  });

  return (
    <Grid gridDefinition={[{ colspan: { default: 12, s: 5 } }, { colspan: { default: 12, s: 7 } }]}>
      <Table<Folder>
        header={
          <Header
            counter={complete ? `(${folders.length})` : `(${folders.length}+)`}
            description={complete ? undefined : TEXT.countsLoading}
          >
            {TEXT.title}
          </Header>
        }
        items={shownFolders}
        loading={loading}
        loadingText={ADMIN_WORKFLOWS_TEXT.loading}
        trackBy="id"
        selectionType="single"
        selectedItems={selected ? [selected] : []}
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
            filteringText={folderQuery}
            filteringPlaceholder={ADMIN_WORKFLOWS_TEXT.searchFolders}
            filteringAriaLabel={ADMIN_WORKFLOWS_TEXT.searchFolders}
            onChange={({ detail }) => setFolderQuery(detail.filteringText)}
          />
        }
        wrapLines
        columnDefinitions={[
          {
            id: 'folder',
            header: TEXT.column,
            cell: (folder) => {
              const { total, active, scheduled } = workflowCounts(inFolder(folder.id));
              return (
                <SpaceBetween size="xxs">
                  <Box fontWeight="bold">{folder.name}</Box>
                  <Box variant="small">{TEXT.counts(total, active, scheduled)}</Box>
                  <SpaceBetween direction="horizontal" size="xxs">
                    <Button
                      variant="inline-link"
                      iconName="edit"
                      ariaLabel={TEXT.edit(folder.name)}
                      onClick={() => onEdit(folder)}
                    />
                    <Button
                      variant="inline-link"
                      iconName="remove"
                      ariaLabel={TEXT.delete(folder.name)}
                      onClick={() => onDelete(folder)}
                    />
                  </SpaceBetween>
                </SpaceBetween>
              );
            },
          },
        ]}
        empty={
          <Box textAlign="center" color="inherit">
            <Box variant="strong">{TEXT.empty}</Box>
            <Box variant="p">{TEXT.emptyDetail}</Box>
          </Box>
        }
      />
      {selected ? (
        <SpaceBetween size="m">
          <Container
            header={<Header description={selected.description ?? undefined}>{selected.name}</Header>}
          >
            <ColumnLayout columns={1}>
              <KeyValuePairs
                columns={3}
                items={[
                  { label: TEXT.total, value: counts.total },
                  { label: TEXT.actives, value: counts.active },
                  { label: TEXT.scheduled, value: counts.scheduled },
                ]}
              />
            </ColumnLayout>
          </Container>
          <Cards<Workflow>
            {...folderCollection.collectionProps}
            items={folderCollection.items}
            trackBy="id"
            cardDefinition={adminWorkflowCard(lawyers, cardActions, true)}
            cardsPerRow={[{ cards: 1 }, { minWidth: 600, cards: 2 }]}
            filter={
              <TextFilter
                {...folderCollection.filterProps}
                filteringPlaceholder={ADMIN_WORKFLOWS_TEXT.searchInFolder}
                filteringAriaLabel={ADMIN_WORKFLOWS_TEXT.searchInFolder}
              />
            }
            pagination={
              <Pagination {...folderCollection.paginationProps} ariaLabels={STRINGS.lists.pagination} />
            }
            empty={
              <Box textAlign="center" color="inherit">
                {TEXT.emptyFolder}
              </Box>
            }
          />
        </SpaceBetween>
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
