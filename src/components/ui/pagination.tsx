import { Pagination as ArkPagination } from '@ark-ui/react/pagination';
import { useLingui } from '@lingui/react/macro';

type PageItem = { type: 'ellipsis' } | { type: 'page'; value: number };

/** The page number shown just before position `index`, or 0 at the start. */
function pageBefore(items: readonly PageItem[], index: number): number {
  const before = items[index - 1];
  return before?.type === 'page' ? before.value : 0;
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
 * Page navigation of a list (Ark UI pagination): previous, numbered pages with ellipses, next, inside
 * a labelled `nav`. The list's query is `offset = (page - 1) × pageSize`.
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
  return (
    <ArkPagination.Root
      className="pagination"
      count={known}
      pageSize={pageSize}
      page={page}
      siblingCount={1}
      onPageChange={(details) => onPageChange(details.page)}
      translations={{
        rootLabel: t`Pages`,
        prevTriggerLabel: t`Previous page`,
        nextTriggerLabel: t`Next page`,
        itemLabel: (details) => {
          const knownPages = details.totalPages - 1;
          return countIsLowerBound
            ? t`Page ${details.page} of more than ${knownPages}`
            : t`Page ${details.page} of ${details.totalPages}`;
        },
      }}
    >
      <ArkPagination.PrevTrigger className="button button--secondary pagination__step">
        {t`Previous`}
      </ArkPagination.PrevTrigger>
      <ArkPagination.Context>
        {(pagination) =>
          pagination.pages.map((item, index) =>
            item.type === 'page' ? (
              <ArkPagination.Item
                key={item.value}
                {...item}
                className="button button--secondary pagination__page"
              >
                {item.value}
              </ArkPagination.Item>
            ) : (
              // An ellipsis is named by the page it follows, which no other ellipsis follows.
              <ArkPagination.Ellipsis
                key={`ellipsis-after-${pageBefore(pagination.pages, index)}`}
                index={index}
                className="pagination__ellipsis"
              >
                …
              </ArkPagination.Ellipsis>
            ),
          )
        }
      </ArkPagination.Context>
      {countIsLowerBound ? (
        <span className="pagination__ellipsis" title={t`More pages follow`}>
          …
        </span>
      ) : null}
      <ArkPagination.NextTrigger className="button button--secondary pagination__step">
        {t`Next`}
      </ArkPagination.NextTrigger>
    </ArkPagination.Root>
  );
}
