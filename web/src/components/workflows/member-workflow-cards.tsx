import Cards, { type CardsProps } from '@cloudscape-design/components/cards';
import Pagination from '@cloudscape-design/components/pagination';

import type { Workflow, WorkflowList } from '../../../../shared';
import type { useServerPages } from '../../api/server-pages';
import { STRINGS } from '../../strings';
import { ShownWorkflowsHealth } from './workflow-health';

export interface MemberWorkflowCardsProps
  extends Pick<CardsProps<Workflow>, 'cardDefinition' | 'header' | 'empty' | 'loadingText'> {
  /** The member's automations, a page at a time (his page's hook reads them). */
  readonly pages: ReturnType<typeof useServerPages<WorkflowList>>;
}

/**
 * A member's workflow cards (/lawyer/workflows, /notary/workflows, the planning and account pages),
 * a page at a time read from the server, with their health; the pagination once there is a next page.
 */
export function MemberWorkflowCards({ pages, ...cards }: MemberWorkflowCardsProps) {
  const items = pages.page?.workflows ?? [];
  const paged = pages.pagination.pagesCount > 1 || pages.pagination.openEnd;
  return (
    <ShownWorkflowsHealth ids={items.map((workflow) => workflow.id)}>
      <Cards<Workflow>
        {...cards}
        items={items}
        loading={pages.loading}
        trackBy="id"
        cardsPerRow={[{ cards: 1 }, { minWidth: 700, cards: 2 }]}
        pagination={
          paged ? <Pagination {...pages.pagination} ariaLabels={STRINGS.lists.pagination} /> : undefined
        }
      />
    </ShownWorkflowsHealth>
  );
}
