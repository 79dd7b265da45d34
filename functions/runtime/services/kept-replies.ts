import { FirstReplyRepository } from '../../data/table/first-replies';
import type { Table } from '../../data/table/table';
import type { FirstReplies } from '../../domain/core/ports';

/** Where a world keeps its creates' first replies (the pipeline's kept-replies step reads them). */
export const firstRepliesOf = (table: Table): FirstReplies => new FirstReplyRepository(table);
