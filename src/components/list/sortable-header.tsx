import type { ReactNode } from 'react';
import type { SortOrder } from '../../../contract/sort-columns.ts';
import './list.css';

interface SortableHeaderProps<TColumn extends string> {
  column: TColumn;
  /** The order the list is in now. */
  sort: SortOrder<TColumn>;
  onSortChange: (sort: SortOrder<TColumn>) => void;
  children: ReactNode;
}

/**
 * A column header that sorts the list by its column: ascending first, then each press reverses it.
 * `aria-sort` sits on the sorted column only, as assistive technology expects.
 */
export function SortableHeader<TColumn extends string>({
  column,
  sort,
  onSortChange,
  children,
}: SortableHeaderProps<TColumn>) {
  const sorted = sort.column === column ? sort.direction : null;
  return (
    <th scope="col" aria-sort={sorted === null ? undefined : sorted === 'asc' ? 'ascending' : 'descending'}>
      <button
        type="button"
        className="list-sort"
        onClick={() => onSortChange({ column, direction: sorted === 'asc' ? 'desc' : 'asc' })}
      >
        {children}
        <span className="list-sort__mark" aria-hidden="true">
          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}
