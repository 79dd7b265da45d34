import type { SelectProps } from '@cloudscape-design/components/select';

/** What a Select over a list read from the server needs of that list's pages. */
interface ServerOptionPages {
  readonly query: {
    readonly isFetching: boolean;
    readonly hasNextPage: boolean;
    fetchNextPage(): Promise<unknown>;
  };
}

/**
 * Cloudscape's manual filtering over a server list: each keystroke searches the server, the end of
 * the list reads on; the status says whether more follow.
 */
export function serverSelectProps(
  pages: ServerOptionPages,
  setSearch: (text: string) => void,
): Pick<SelectProps, 'filteringType' | 'statusType' | 'onLoadItems'> {
  return {
    filteringType: 'manual',
    statusType: pages.query.isFetching ? 'loading' : pages.query.hasNextPage ? 'pending' : 'finished',
    onLoadItems: ({ detail }) => {
      if (detail.firstPage) setSearch(detail.filteringText);
      else if (pages.query.hasNextPage) void pages.query.fetchNextPage();
    },
  };
}
