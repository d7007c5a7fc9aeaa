import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import { formatSort, type SortOrder } from '../../../contract/sort-columns.ts';
import { usePageInRange } from './use-page-in-range.ts';

/** What every list keeps in its address: the page and the sort, beside its own filters. */
interface ListAddressSearch {
  page?: number | undefined;
  sort?: string | undefined;
}

/**
 * The moves of a list whose state lives in the address (decision 016, the list kit): a new filter or
 * sort starts again at the first page, typing replaces the history entry as it is not a step back,
 * and a page past the end (rows removed meanwhile, an old address) moves to the last page.
 */
export function useListAddress<Search extends ListAddressSearch, Column extends string>(
  search: Search,
  /** The list's total once this page's answer arrived; undefined while a placeholder shows. */
  total: number | undefined,
) {
  const navigate = useNavigate();
  const page = search.page ?? 1;
  const updateSearch = useCallback(
    (changes: Partial<Search>, replace = false) =>
      // '.' is the caller's own route; TanStack types a search updater only for a literal path.
      void navigate({
        to: '.',
        search: (current: Record<string, unknown>) => ({ ...current, ...changes }),
        replace,
      } as never),
    [navigate],
  );
  const replacePage = useCallback(
    (next: number) => updateSearch({ page: next === 1 ? undefined : next } as Partial<Search>, true),
    [updateSearch],
  );
  usePageInRange({ page, pageSize: PAGE_SIZE, total, replacePage });
  const changeFilter = (changes: Partial<Search>, replace = false) =>
    updateSearch({ ...changes, page: undefined }, replace);
  return {
    page,
    changeFilter,
    changeSort: (next: SortOrder<Column>) => changeFilter({ sort: formatSort(next) } as Partial<Search>),
    changePage: (next: number) => updateSearch({ page: next === 1 ? undefined : next } as Partial<Search>),
  };
}
