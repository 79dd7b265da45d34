import TextFilter from '@cloudscape-design/components/text-filter';
import { useState } from 'react';
import { useLocation } from 'react-router';

import type { WorkflowList } from '../../../../shared';
import type { useServerPages } from '../../api/server-pages';
import { useDebounced } from '../../layout/use-debounced';
import { STRINGS } from '../../strings';
import { linkedSearch } from './health-strings';

type Pages = ReturnType<typeof useServerPages<WorkflowList>>;

/** What a member types in his search (first the link's `recherche`), and the search the server is asked once typing pauses. */
export function useMemberSearch() {
  const { search } = useLocation();
  // A link from the health dashboard names the automation to show, as on the admin's list.
  const [text, setText] = useState(() => linkedSearch(search));
  return { text, setText, q: useDebounced(text.trim()) };
}

/**
 * The search field over a member's own automations (the server searches his list only): the
 * results of the lists it searches are counted under it.
 */
export function MemberSearch({
  search,
  lists,
}: {
  readonly search: ReturnType<typeof useMemberSearch>;
  readonly lists: readonly Pages[];
}) {
  const read = lists.every((pages) => pages.page !== undefined);
  const found = lists.reduce((sum, pages) => sum + (pages.page?.workflows.length ?? 0), 0);
  const more = lists.some((pages) => pages.query.hasNextPage);
  return (
    <TextFilter
      filteringText={search.text}
      filteringPlaceholder={STRINGS.workflows.search}
      filteringAriaLabel={STRINGS.workflows.search}
      countText={search.q !== '' && read ? STRINGS.lists.matches(found, more) : undefined}
      onChange={({ detail }) => search.setText(detail.filteringText)}
    />
  );
}
