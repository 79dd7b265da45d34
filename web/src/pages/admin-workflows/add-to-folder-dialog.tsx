import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import Pagination from '@cloudscape-design/components/pagination';
import SpaceBetween from '@cloudscape-design/components/space-between';
import TextFilter from '@cloudscape-design/components/text-filter';
import { useState } from 'react';
import type { Folder, Workflow } from '../../../../shared';
import { useFileWorkflow, useWorkflowPages } from '../../api/directory';
import { ResponsiveTable } from '../../layout/responsive-table';
import { useDebounced } from '../../layout/use-debounced';
import { useNotifications } from '../../notifications/notifications-context';
import { STRINGS } from '../../strings';
import { ADMIN_WORKFLOWS_TEXT } from './strings';

const TEXT = ADMIN_WORKFLOWS_TEXT.addDialog;

/** Rows on one page: every automation of the platform may be a candidate. The choice is kept across pages. */
const CANDIDATES_PER_PAGE = 10;

export interface AddToFolderDialogProps {
  readonly folder: Folder;
  /** 'Nouvelle automatisation dans ce dossier': the create dialog, with the folder chosen. */
  readonly onCreateNew: () => void;
  readonly onDismiss: () => void;
}

/**
 * 'Ajouter au Dossier': picks existing automations (several at once, searched on the server) and
 * files them in the folder; a new automation can still be created in it from here. Moving one only
 * changes its folder, so its scheduling and state stay as they are.
 */
export function AddToFolderDialog({ folder, onCreateNew, onDismiss }: AddToFolderDialogProps) {
  const notifications = useNotifications();
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim());
  const candidates = useWorkflowPages({ limit: CANDIDATES_PER_PAGE, q });
  const file = useFileWorkflow();
  const [selected, setSelected] = useState<readonly Workflow[]>([]);
  const [saving, setSaving] = useState(false);
  const owners = candidates.page?.owners ?? [];
  const items = candidates.page?.workflows ?? [];
  const ownerName = (email: string) => {
    const owner = owners.find((candidate) => candidate.email === email);
    return owner ? `${owner.firstName} ${owner.lastName}` : email;
  };

  const add = async () => {
    setSaving(true);
    let moved = 0;
    // One update per automation: a failure leaves the others filed and is named in the toast.
    for (const workflow of selected) {
      try {
        await file.mutateAsync({ id: workflow.id, folderId: folder.id });
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
      <ResponsiveTable<Workflow>
        variant="embedded"
        items={items}
        loading={candidates.loading}
        loadingText={ADMIN_WORKFLOWS_TEXT.loading}
        trackBy="id"
        selectionType="multi"
        selectedItems={[...selected]}
        isItemDisabled={(workflow) => workflow.folderId === folder.id}
        onSelectionChange={({ detail }) => setSelected(detail.selectedItems)}
        onRowClick={({ detail }) =>
          detail.item.folderId !== folder.id &&
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
            filteringText={query}
            filteringPlaceholder={ADMIN_WORKFLOWS_TEXT.search}
            filteringAriaLabel={ADMIN_WORKFLOWS_TEXT.search}
            onChange={({ detail }) => setQuery(detail.filteringText)}
          />
        }
        pagination={<Pagination {...candidates.pagination} ariaLabels={STRINGS.lists.pagination} />}
        wrapLines
        columnDefinitions={[
          { id: 'name', header: TEXT.columns.name, cell: (workflow) => workflow.name },
          { id: 'lawyer', header: TEXT.columns.lawyer, cell: (workflow) => ownerName(workflow.lawyerEmail) },
          {
            id: 'folder',
            header: TEXT.columns.folder,
            cell: (workflow) =>
              workflow.folderId === folder.id
                ? folder.name
                : workflow.folderId
                  ? TEXT.otherFolder
                  : TEXT.noFolder,
          },
        ]}
        empty={
          <Box textAlign="center" color="inherit">
            {q ? ADMIN_WORKFLOWS_TEXT.noMatch : TEXT.empty}
          </Box>
        }
      />
    </Modal>
  );
}
