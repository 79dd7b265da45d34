import Select, { type SelectProps } from '@cloudscape-design/components/select';
import type { ReactNode } from 'react';
import { useState } from 'react';

import { WORKFLOW_HEALTH_FILTERS, type WorkflowHealthFilter } from '../../../../shared';
import { useFolderPages, useLawyerPages } from '../../api/directory';
import type { WorkflowPageQuery } from '../../api/keys';
import { useDebounced } from '../../layout/use-debounced';
import { serverSelectProps } from './server-select';
import { ADMIN_WORKFLOWS_TEXT } from './strings';
import styles from './workflow-filters.module.css';

const TEXT = ADMIN_WORKFLOWS_TEXT.filters;

/** Lawyers or folders offered in a filter's list, a page at a time. */
const OPTIONS_PAGE_SIZE = 20;

/** The states an admin keeps the list to, as the server's `active` and `scheduled` filters. */
const STATES = {
  active: { active: true },
  inactive: { active: false },
  scheduled: { scheduled: true },
  unscheduled: { scheduled: false },
} as const satisfies Record<string, Pick<WorkflowPageQuery, 'active' | 'scheduled'>>;
type StateFilter = keyof typeof STATES;

/** The filters chosen: a lawyer (his e-mail and name), a folder, a state, a health; null for any. */
export interface WorkflowFilterValues {
  readonly lawyer: SelectProps.Option | null;
  readonly folder: SelectProps.Option | null;
  readonly state: StateFilter | null;
  readonly health: WorkflowHealthFilter | null;
}

export const NO_FILTER: WorkflowFilterValues = { lawyer: null, folder: null, state: null, health: null };

/** The filters as the server's list query reads them. */
export function filterQuery(filters: WorkflowFilterValues): Partial<WorkflowPageQuery> {
  return {
    ...(filters.lawyer?.value ? { lawyerEmail: filters.lawyer.value } : {}),
    ...(filters.folder?.value ? { folderId: filters.folder.value } : {}),
    ...(filters.state ? STATES[filters.state] : {}),
    ...(filters.health ? { health: filters.health } : {}),
  };
}

/**
 * The search and filters of the admin's automations (lawyer, folder, state, health), as Cloudscape's
 * demos of a list with select filters place them: all kept by the server. The lawyer's and the
 * folder's lists are themselves searched on the server.
 */
export function WorkflowFilters({
  search,
  filters,
  onChange,
}: {
  readonly search: ReactNode;
  readonly filters: WorkflowFilterValues;
  readonly onChange: (filters: WorkflowFilterValues) => void;
}) {
  const [lawyerSearch, setLawyerSearch] = useState('');
  const [folderSearch, setFolderSearch] = useState('');
  // Read once a list is opened: the page's first read stays the automations alone.
  const [opened, setOpened] = useState({ lawyers: false, folders: false });
  const lawyerPages = useLawyerPages(
    useDebounced(lawyerSearch.trim()),
    OPTIONS_PAGE_SIZE,
    undefined,
    opened.lawyers,
  );
  const folderPages = useFolderPages(useDebounced(folderSearch.trim()), opened.folders);

  const anyLawyer: SelectProps.Option = { value: '', label: TEXT.allLawyers };
  const anyFolder: SelectProps.Option = { value: '', label: TEXT.allFolders };
  const lawyerOptions = [
    anyLawyer,
    ...lawyerPages.pages
      .flatMap((page) => page.lawyers)
      .map((lawyer) => ({
        value: lawyer.email,
        label: `${lawyer.firstName} ${lawyer.lastName}`,
        description: lawyer.email,
      })),
  ];
  const folderOptions = [
    anyFolder,
    ...folderPages.pages
      .flatMap((page) => page.folders)
      .map((folder) => ({ value: folder.id, label: folder.name })),
  ];
  const stateOptions: SelectProps.Option[] = [
    { value: '', label: TEXT.allStates },
    ...(Object.keys(STATES) as StateFilter[]).map((state) => ({ value: state, label: TEXT.states[state] })),
  ];
  const healthOptions: SelectProps.Option[] = [
    { value: '', label: TEXT.allHealth },
    ...WORKFLOW_HEALTH_FILTERS.map((health) => ({ value: health, ...TEXT.healths[health] })),
  ];
  const chosen = (option: SelectProps.Option) => (option.value ? option : null);

  return (
    <div className={styles.filters}>
      <div className={styles.search}>{search}</div>
      <div className={styles.selects}>
        <div className={styles.select}>
          <Select
            inlineLabelText={TEXT.lawyer}
            selectedOption={filters.lawyer ?? anyLawyer}
            options={lawyerOptions}
            {...serverSelectProps(lawyerPages, setLawyerSearch)}
            onFocus={() => setOpened((current) => ({ ...current, lawyers: true }))}
            loadingText={TEXT.lawyersLoading}
            filteringPlaceholder={TEXT.lawyerSearch}
            onChange={({ detail }) => onChange({ ...filters, lawyer: chosen(detail.selectedOption) })}
          />
        </div>
        <div className={styles.select}>
          <Select
            inlineLabelText={TEXT.folder}
            selectedOption={filters.folder ?? anyFolder}
            options={folderOptions}
            {...serverSelectProps(folderPages, setFolderSearch)}
            onFocus={() => setOpened((current) => ({ ...current, folders: true }))}
            loadingText={TEXT.foldersLoading}
            filteringPlaceholder={TEXT.folderSearch}
            onChange={({ detail }) => onChange({ ...filters, folder: chosen(detail.selectedOption) })}
          />
        </div>
        <div className={styles.select}>
          <Select
            inlineLabelText={TEXT.state}
            selectedOption={stateOptions.find((option) => option.value === (filters.state ?? '')) ?? null}
            options={stateOptions}
            onChange={({ detail }) =>
              onChange({ ...filters, state: (detail.selectedOption.value || null) as StateFilter | null })
            }
          />
        </div>
        <div className={styles.select}>
          <Select
            inlineLabelText={TEXT.health}
            selectedOption={healthOptions.find((option) => option.value === (filters.health ?? '')) ?? null}
            options={healthOptions}
            onChange={({ detail }) =>
              onChange({
                ...filters,
                health: (detail.selectedOption.value || null) as WorkflowHealthFilter | null,
              })
            }
          />
        </div>
      </div>
    </div>
  );
}
