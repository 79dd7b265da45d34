import type { PaginationProps } from '@cloudscape-design/components/pagination';
import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';

/** One page of a list route: its items under some name, and the next page's cursor. */
export interface ListReply {
  readonly nextCursor: string | null;
}

/**
 * A list read one page per user action (Cloudscape's open-ended pagination): the first page at
 * once, the next when the user asks for it, never the rest in the background. The pages read stay
 * (going back is free); a new key (another search) starts again from its first page.
 */
export function useServerPages<R extends ListReply>(options: {
  readonly queryKey: QueryKey;
  readonly read: (cursor: string | undefined, signal: AbortSignal) => Promise<R>;
  readonly errorMessage?: string;
  readonly enabled?: boolean;
}) {
  const query = useInfiniteQuery({
    queryKey: options.queryKey,
    queryFn: ({ pageParam, signal }) => options.read(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: options.enabled ?? true,
    meta: options.errorMessage ? { errorMessage: options.errorMessage } : {},
  });
  const [shown, setShown] = useState<{ key: string; index: number }>({ key: '', index: 0 });
  const keyId = JSON.stringify(options.queryKey);
  const pages = query.data?.pages ?? [];
  const index = shown.key === keyId ? Math.min(shown.index, Math.max(pages.length - 1, 0)) : 0;
  const show = (next: number) => setShown({ key: keyId, index: next });
  const pagination: PaginationProps = {
    currentPageIndex: index + 1,
    pagesCount: Math.max(pages.length, 1),
    openEnd: query.hasNextPage,
    disabled: query.isFetching && pages.length === 0,
    onChange: ({ detail }) => show(detail.currentPageIndex - 1),
    onNextPageClick: ({ detail }) => {
      if (!detail.requestedPageAvailable && query.hasNextPage) void query.fetchNextPage();
      show(detail.requestedPageIndex - 1);
    },
  };
  return {
    query,
    /** The page shown, undefined until it is read. */
    page: pages[index] as R | undefined,
    /** Every page read, for a 'Charger plus' list. */
    pages,
    pagination,
    /** True while the page shown is being read (the first, or the next asked for). */
    loading: pages[index] === undefined && (query.isPending || query.isFetchingNextPage),
  };
}
