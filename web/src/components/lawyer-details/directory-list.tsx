import Header from '@cloudscape-design/components/header';
import TextFilter from '@cloudscape-design/components/text-filter';

import { STRINGS } from '../../strings';
import type { useLawyerDirectory } from './use-lawyer-directory';

type LawyerDirectory = ReturnType<typeof useLawyerDirectory>;

/** The title of the lawyers' or notaries' list, with how many there are once known. */
export function DirectoryHeader({
  title,
  total,
}: {
  readonly title: string;
  readonly total: number | undefined;
}) {
  return (
    <Header counter={total === undefined ? undefined : `(${STRINGS.lists.count(total)})`}>{title}</Header>
  );
}

/** The list's search field: the directory searches the server as it is typed in. */
export function DirectorySearch({
  directory,
  label,
  countText,
}: {
  readonly directory: LawyerDirectory;
  readonly label: string;
  readonly countText?: string;
}) {
  return (
    <TextFilter
      filteringText={directory.query}
      filteringPlaceholder={label}
      filteringAriaLabel={label}
      countText={countText}
      onChange={({ detail }) => directory.setQuery(detail.filteringText)}
    />
  );
}
