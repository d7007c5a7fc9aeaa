import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';

interface ListCountProps {
  list: { total: number; total_is_lower_bound?: boolean | undefined };
  /** The exact count in the list's own words ("# certificates"), shown while the total is exact. */
  children: ReactNode;
}

/**
 * A list's count line. A long list is counted only so far past the page (decision 024); its count
 * then says "more than N" instead of a number the server never computed.
 */
export function ListCount({ list, children }: ListCountProps) {
  const { i18n } = useLingui();
  if (!list.total_is_lower_bound) return <>{children}</>;
  const count = i18n.number(list.total);
  return <Trans>More than {count} match</Trans>;
}
