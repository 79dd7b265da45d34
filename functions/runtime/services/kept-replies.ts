import { FirstReplyRepository } from '../../data/table/first-replies';
import type { Table } from '../../data/table/table';
import { type IdempotentRoute, keptReplies } from '../../http/kept-replies';

/** The step that keeps and replays a create's first reply, over a world's table. */
export const keptRepliesOf = (table: Table) => {
  const replies = new FirstReplyRepository(table);
  return (route: IdempotentRoute) => keptReplies(route, replies);
};
