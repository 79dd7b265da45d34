import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { TableProps } from '@cloudscape-design/components/table';

import type { Folder } from '../../../../shared';
import { ADMIN_WORKFLOWS_TEXT } from './strings';

const TEXT = ADMIN_WORKFLOWS_TEXT.folders;

/** What a folder row's buttons open; the page owns the dialogs. */
export interface FolderRowActions {
  edit(folder: Folder): void;
  remove(folder: Folder): void;
}

/** The folder list's one column: name, counters kept by the server, edit and delete. */
export function folderColumns(actions: FolderRowActions): TableProps.ColumnDefinition<Folder>[] {
  return [
    {
      id: 'folder',
      header: TEXT.column,
      cell: (folder) => (
        <SpaceBetween size="xxs">
          <Box fontWeight="bold">{folder.name}</Box>
          <Box variant="small">
            {TEXT.counts(folder.counts.total, folder.counts.active, folder.counts.scheduled)}
          </Box>
          <SpaceBetween direction="horizontal" size="xxs">
            <Button
              variant="inline-link"
              iconName="edit"
              ariaLabel={TEXT.edit(folder.name)}
              onClick={() => actions.edit(folder)}
            />
            <Button
              variant="inline-link"
              iconName="remove"
              ariaLabel={TEXT.delete(folder.name)}
              onClick={() => actions.remove(folder)}
            />
          </SpaceBetween>
        </SpaceBetween>
      ),
    },
  ];
}
