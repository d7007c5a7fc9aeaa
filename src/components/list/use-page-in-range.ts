import { useEffect } from 'react';

interface PageInRange {
  page: number;
  pageSize: number;
  /** The list's total, once an answer for this page arrived (not a previous page's placeholder). */
  total: number | undefined;
  /** Moves to another page, replacing the history entry: the user did not ask for this move. */
  replacePage: (page: number) => void;
}

/**
 * A page past the end of its list (items removed meanwhile, an old or hand-edited address) moves to
 * the last page instead of showing an empty table under a pagination that says otherwise.
 */
export function usePageInRange({ page, pageSize, total, replacePage }: PageInRange): void {
  const lastPage = total === undefined ? null : Math.max(1, Math.ceil(total / pageSize));
  const pastTheEnd = lastPage !== null && page > lastPage;
  useEffect(() => {
    if (pastTheEnd && lastPage !== null) replacePage(lastPage);
  }, [pastTheEnd, lastPage, replacePage]);
}
