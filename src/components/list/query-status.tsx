import { Trans } from '@lingui/react/macro';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useOnline } from '../../lib/offline/online.ts';
import { ServerErrorAlert } from '../server-error-alert.tsx';
import { Button } from '../ui/button.tsx';
import './list.css';

interface QueryStatusProps<TData> {
  query: UseQueryResult<TData>;
  /** Said while the first answer is awaited, e.g. "Loading accounts…". */
  pendingText: ReactNode;
  /** What stands in for an answer with nothing to show; without it, an empty answer goes to `children`. */
  empty?: { when: (data: TData) => boolean; content: ReactNode };
  children: (data: TData) => ReactNode;
}

/**
 * What a list (or any section fed by one query) shows in each state of its query: offline and never
 * loaded, loading, failed (in our words, with a retry), empty, or its data. Data loaded before wins
 * over a later failure or a lost connection, so a list once seen stays readable.
 */
export function QueryStatus<TData>({ query, pendingText, empty, children }: QueryStatusProps<TData>) {
  const online = useOnline();
  if (query.data === undefined && !online) {
    return (
      <p className="list-status" role="status">
        <Trans>This was not loaded before the connection was lost. It shows once you are back online.</Trans>
      </p>
    );
  }
  if (query.isPending) {
    return (
      <p className="list-status" role="status">
        {pendingText}
      </p>
    );
  }
  // Neither pending nor holding data: the query failed.
  if (query.data === undefined) {
    return (
      <div className="list-status">
        <ServerErrorAlert error={query.error} />
        <Button variant="secondary" onClick={() => void query.refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  const { data } = query;
  if (empty?.when(data)) {
    return (
      <div className="empty-state list-status" role="status">
        {empty.content}
      </div>
    );
  }
  return children(data);
}
