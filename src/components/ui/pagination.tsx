import { useLingui } from '@lingui/react/macro';

type PageItem = { type: 'ellipsis'; after: number } | { type: 'page'; value: number };

/** Pages shown either side of the current one, and at each end of the bar. */
const SIBLINGS = 1;
const BOUNDARY = 1;
/** The bar's width in buttons: both ends, both ellipses, the current page and its neighbours. */
const SLOTS = SIBLINGS * 2 + 3 + BOUNDARY * 2;

const pageRange = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(to - from + 1, 0) }, (_, index) => from + index);

/**
 * The buttons of a page bar (the pattern of Ark UI's pagination, which the bar followed before): every
 * page when they fit in seven slots, else the first and last pages, the current one with its
 * neighbours, and an ellipsis for each gap; near an end the bar keeps its width by showing more
 * pages on that side. A gap of a single page shows the page, which takes no more room.
 */
export function pageItems(page: number, totalPages: number): PageItem[] {
  let pages: number[];
  if (totalPages <= SLOTS) {
    pages = pageRange(1, totalPages);
  } else {
    const sideCount = SLOTS - 1 - BOUNDARY;
    const gapLeft = page - SIBLINGS > BOUNDARY + 2;
    const gapRight = page + SIBLINGS < totalPages - BOUNDARY - 1;
    const head = pageRange(1, BOUNDARY);
    const tail = pageRange(totalPages - BOUNDARY + 1, totalPages);
    if (!gapLeft) pages = [...pageRange(1, sideCount), ...tail];
    else if (!gapRight) pages = [...head, ...pageRange(totalPages - sideCount + 1, totalPages)];
    else pages = [...head, ...pageRange(page - SIBLINGS, page + SIBLINGS), ...tail];
  }
  const items: PageItem[] = [];
  let previous = 0;
  for (const value of pages) {
    if (value - previous === 2) items.push({ type: 'page', value: previous + 1 });
    else if (value - previous > 2) items.push({ type: 'ellipsis', after: previous });
    items.push({ type: 'page', value });
    previous = value;
  }
  return items;
}

interface PaginationProps {
  /** Total number of items across every page. */
  count: number;
  /**
   * The list's `total_is_lower_bound`: more than `count` items match (decision 024). The pages known
   * to hold items are offered, the last of them followed by an ellipsis, and Next stays enabled.
   */
  countIsLowerBound?: boolean | undefined;
  pageSize: number;
  /** 1-based. */
  page: number;
  onPageChange: (page: number) => void;
}

/**
 * Page navigation of a list: previous, numbered pages with ellipses, next, inside a labelled `nav`;
 * the current page is `aria-current="page"` and each page button says which page of how many it is.
 * Plain buttons, not a widget library: it is on the first screen of the console, and buttons in a
 * `nav` need no script beyond their clicks. The list's query is `offset = (page - 1) × pageSize`.
 */
export function Pagination({
  count,
  countIsLowerBound = false,
  pageSize,
  page,
  onPageChange,
}: PaginationProps) {
  const { t } = useLingui();
  // At least one item lies past `count`, so the page holding it exists.
  const known = countIsLowerBound ? count + 1 : count;
  if (known <= pageSize) return null;
  const totalPages = Math.ceil(known / pageSize);
  const current = Math.min(Math.max(page, 1), totalPages);
  const pageLabel = (details: { page: number; totalPages: number }) => {
    const knownPages = details.totalPages - 1;
    return countIsLowerBound
      ? t`Page ${details.page} of more than ${knownPages}`
      : t`Page ${details.page} of ${details.totalPages}`;
  };
  return (
    <nav className="pagination" aria-label={t`Pages`}>
      <button
        type="button"
        className="button button--secondary pagination__step"
        aria-label={t`Previous page`}
        disabled={current === 1}
        onClick={() => onPageChange(current - 1)}
      >
        {t`Previous`}
      </button>
      {pageItems(current, totalPages).map((item) =>
        item.type === 'page' ? (
          <button
            key={item.value}
            type="button"
            className="button button--secondary pagination__page"
            aria-current={item.value === current ? 'page' : undefined}
            aria-label={pageLabel({ page: item.value, totalPages })}
            onClick={() => {
              if (item.value !== current) onPageChange(item.value);
            }}
          >
            {item.value}
          </button>
        ) : (
          <span key={`ellipsis-after-${item.after}`} className="pagination__ellipsis">
            …
          </span>
        ),
      )}
      {countIsLowerBound ? (
        <span className="pagination__ellipsis" title={t`More pages follow`}>
          …
        </span>
      ) : null}
      <button
        type="button"
        className="button button--secondary pagination__step"
        aria-label={t`Next page`}
        disabled={current === totalPages}
        onClick={() => onPageChange(current + 1)}
      >
        {t`Next`}
      </button>
    </nav>
  );
}
