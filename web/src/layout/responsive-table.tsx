import Cards from '@cloudscape-design/components/cards';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';

import { useMediaQuery } from './use-media-query';

/**
 * Under Cloudscape's own narrow breakpoint (688 px, its `xs`) a table's columns no longer fit:
 * the rows become cards, one a row, every column a section, nothing scrolling sideways.
 */
export const NARROW_MEDIA_QUERY = '(max-width: 688px)';

/**
 * A Cloudscape Table on a wide screen, the same items as Cards on a narrow one: the first column is
 * each card's header, the others its sections under their column's header; the selection, the
 * header, filter, pagination and empty state are the table's.
 */
export function ResponsiveTable<T>(props: TableProps<T>) {
  const narrow = useMediaQuery(NARROW_MEDIA_QUERY);
  return narrow ? <TableAsCards {...props} /> : <Table<T> {...props} />;
}

function TableAsCards<T>({
  columnDefinitions,
  items,
  trackBy,
  loading,
  loadingText,
  header,
  filter,
  pagination,
  footer,
  empty,
  ariaLabels,
  selectionType,
  selectedItems,
  onSelectionChange,
  isItemDisabled,
}: TableProps<T>) {
  const [first, ...rest] = columnDefinitions;
  const cards = (
    <Cards<T>
      items={items}
      trackBy={trackBy}
      loading={loading}
      loadingText={loadingText}
      header={header}
      filter={filter}
      pagination={pagination}
      empty={empty}
      cardsPerRow={[{ cards: 1 }]}
      cardDefinition={{
        header: first ? (item) => first.cell(item) : undefined,
        sections: rest.map((column, index) => ({
          id: column.id ?? String(index),
          header: column.header,
          content: (item: T) => column.cell(item),
        })),
      }}
      ariaLabels={{
        cardsLabel: ariaLabels?.tableLabel,
        itemSelectionLabel: ariaLabels?.itemSelectionLabel ?? (() => ''),
        selectionGroupLabel: ariaLabels?.selectionGroupLabel ?? '',
      }}
      selectionType={selectionType}
      selectedItems={selectedItems}
      onSelectionChange={onSelectionChange}
      isItemDisabled={isItemDisabled}
    />
  );
  return footer ? (
    <SpaceBetween size="s">
      {cards}
      {footer}
    </SpaceBetween>
  ) : (
    cards
  );
}
