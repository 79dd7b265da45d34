import { useCollection } from '@cloudscape-design/collection-hooks';
import Cards, { type CardsProps } from '@cloudscape-design/components/cards';
import Pagination from '@cloudscape-design/components/pagination';

import type { Workflow } from '../../../../shared';
import { STRINGS } from '../../strings';

/**
 * Cards drawn at once on a member's screen. A firm's automations are loaded whole (its counts are
 * exact), but drawn a page at a time: 1,000 of them drawn at once made /lawyer/cron take 6-7 s and
 * 72,000 DOM nodes before its first card showed.
 */
const MEMBER_CARDS_PER_PAGE = 12;

export interface MemberWorkflowCardsProps
  extends Pick<CardsProps<Workflow>, 'cardDefinition' | 'header' | 'empty' | 'loading' | 'loadingText'> {
  /** Every workflow of the list, loaded; the cards show them a page at a time. */
  readonly items: readonly Workflow[];
}

/**
 * A member's workflow cards (/lawyer/workflows, /notary/workflows, the planning and account pages),
 * a page of them at a time with Cloudscape's pagination, shown once there is more than one page.
 */
export function MemberWorkflowCards({ items, ...cards }: MemberWorkflowCardsProps) {
  const collection = useCollection(items, { pagination: { pageSize: MEMBER_CARDS_PER_PAGE } });
  return (
    <Cards<Workflow>
      {...collection.collectionProps}
      {...cards}
      items={collection.items}
      trackBy="id"
      cardsPerRow={[{ cards: 1 }, { minWidth: 700, cards: 2 }]}
      pagination={
        collection.paginationProps.pagesCount > 1 ? (
          <Pagination {...collection.paginationProps} ariaLabels={STRINGS.lists.pagination} />
        ) : undefined
      }
    />
  );
}
