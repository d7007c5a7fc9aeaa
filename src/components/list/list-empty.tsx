import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Button } from '../ui/button.tsx';

interface ListEmptyProps {
  /** Whether the address holds a filter: then the list says nothing matches and offers the reset. */
  filtered: boolean;
  noMatch: ReactNode;
  none: ReactNode;
  onResetFilters: () => void;
}

/** What a list shows with no rows: nothing matches its filters (with a way out), or there is nothing. */
export function ListEmpty({ filtered, noMatch, none, onResetFilters }: ListEmptyProps) {
  return filtered ? (
    <>
      <p>{noMatch}</p>
      <Button variant="secondary" onClick={onResetFilters}>
        <Trans>Reset filters</Trans>
      </Button>
    </>
  ) : (
    <p>{none}</p>
  );
}
