import { useCollection } from '@cloudscape-design/collection-hooks';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import Pagination from '@cloudscape-design/components/pagination';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState } from 'react';

import type { Folder, Lawyer, Workflow } from '../../../../shared';
import { callApi } from '../../api/api-client';
import { useNotifications } from '../../notifications/notifications-context';
import { STRINGS } from '../../strings';
import { ADMIN_WORKFLOWS_TEXT } from './strings';
import { matchesWorkflow } from './workflow-search';

const TEXT = ADMIN_WORKFLOWS_TEXT.addDialog;

/**
 * Rows drawn at once: every automation of the platform may be a candidate, and 1,000 of them drawn
 * at once took 1.6-2.3 s to open the dialog and 19,500 DOM nodes. The choice is kept across pages.
 */
const CANDIDATES_PER_PAGE = 10;

export interface AddToFolderDialogProps {
  readonly folder: Folder;
  readonly folders: readonly Folder[];
  readonly workflows: readonly Workflow[];
  readonly lawyers: readonly Lawyer[];
  /** Each workflow once it is saved in the folder. */
  readonly onMoved: (workflow: Workflow) => void;
  /** 'Nouvelle automatisation dans ce dossier': the create dialog, with the folder chosen. */
  readonly onCreateNew: () => void;
  readonly onDismiss: () => void;
}

/**
 * 'Ajouter au Dossier': picks existing automations (several at once) and files them in the folder;
 * a new automation can still be created in it from here. Moving one only changes its folder, so
 * its scheduling and state stay as they are.
 */
export function AddToFolderDialog({
  folder,
  folders,
  workflows,
  lawyers,
  onMoved,
  onCreateNew,
  onDismiss,
}: AddToFolderDialogProps) {
  const notifications = useNotifications();
  const [selected, setSelected] = useState<readonly Workflow[]>([]);
  const [saving, setSaving] = useState(false);
  const candidates = workflows.filter((workflow) => workflow.folderId !== folder.id);
  const shown = useCollection(candidates, {
    filtering: { filteringFunction: (workflow, text) => matchesWorkflow(workflow, text) },
    pagination: { pageSize: CANDIDATES_PER_PAGE },
  });
  const folderName = (id: string | null) => folders.find((item) => item.id === id)?.name ?? TEXT.noFolder;
  const ownerName = (email: string) => {
    const owner = lawyers.find((lawyer) => lawyer.email === email);
    return owner ? `${owner.firstName} ${owner.lastName}` : email;
  };

  const add = async () => {
    setSaving(true);
    let moved = 0;
    // One update per automation: a failure leaves the others filed and is named in the toast.
    for (const workflow of selected) {
      try {
        onMoved(
          await callApi('updateWorkflow', { params: { id: workflow.id }, body: { folderId: folder.id } }),
        );
        moved += 1;
      } catch {
        notifications.error(TEXT.failed(workflow.name));
      }
    }
    setSaving(false);
    if (moved > 0) notifications.success(TEXT.added(moved, folder.name));
    if (moved === selected.length) onDismiss();
    else setSelected([]);
  };

  return (
    <Modal
      visible
      size="large"
      header={TEXT.title(folder.name)}
      onDismiss={() => !saving && onDismiss()}
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" disabled={saving} onClick={onDismiss}>
              {TEXT.cancel}
            </Button>
            <Button iconName="add-plus" disabled={saving} onClick={onCreateNew}>
              {TEXT.createNew}
            </Button>
            <Button variant="primary" loading={saving} disabled={selected.length === 0} onClick={add}>
              {TEXT.add(selected.length)}
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <Table<Workflow>
        {...shown.collectionProps}
        variant="embedded"
        items={shown.items}
        trackBy="id"
        selectionType="multi"
        selectedItems={[...selected]}
        onSelectionChange={({ detail }) => setSelected(detail.selectedItems)}
        onRowClick={({ detail }) =>
          setSelected((current) =>
            current.some((item) => item.id === detail.item.id)
              ? current.filter((item) => item.id !== detail.item.id)
              : [...current, detail.item],
          )
        }
        ariaLabels={{
          itemSelectionLabel: (_data, workflow) => TEXT.choose(workflow.name),
          allItemsSelectionLabel: () => TEXT.chooseAll,
          selectionGroupLabel: TEXT.selectionGroup,
        }}
        filter={
          <TextFilter
            {...shown.filterProps}
            filteringPlaceholder={ADMIN_WORKFLOWS_TEXT.search}
            filteringAriaLabel={ADMIN_WORKFLOWS_TEXT.search}
          />
        }
        pagination={<Pagination {...shown.paginationProps} ariaLabels={STRINGS.lists.pagination} />}
        wrapLines
        columnDefinitions={[
          { id: 'name', header: TEXT.columns.name, cell: (workflow) => workflow.name },
          { id: 'lawyer', header: TEXT.columns.lawyer, cell: (workflow) => ownerName(workflow.lawyerEmail) },
          { id: 'folder', header: TEXT.columns.folder, cell: (workflow) => folderName(workflow.folderId) },
        ]}
        empty={
          <Box textAlign="center" color="inherit">
            {candidates.length === 0 ? TEXT.empty : ADMIN_WORKFLOWS_TEXT.noMatch}
          </Box>
        }
      />
    </Modal>
  );
}
