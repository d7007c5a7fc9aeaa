import { useRouterState } from '@tanstack/react-router';
import { useRef } from 'react';
import { RequirePermissions } from '../../components/require-permissions.tsx';
import { type BulkNavigate, BulkUserCreatePage } from './components/bulk-user-create-page.tsx';
import { type BulkSearch, stepOfHash } from './search.ts';

/**
 * What both routes of the pair render (`bulk-user-create` and `role-bulk-user-create`, decision 039
 * §3): the same page, which offers custom roles only with the roles feature on. Creating users
 * needs manage user (the server checks the account's scope too).
 */
export function BulkUserCreateRoute({ search, navigate }: { search: BulkSearch; navigate: BulkNavigate }) {
  // While a link away from the page is followed, the page still renders under the new address: its
  // hash then says nothing about this page's step.
  const hash = useRouterState({
    select: (state) => (/bulk-user-create\/?$/.test(state.location.pathname) ? state.location.hash : null),
  });
  const shownHash = useRef(hash ?? '');
  if (hash !== null) shownHash.current = hash;
  return (
    <RequirePermissions flags={['canManageUser']}>
      <BulkUserCreatePage
        search={search}
        requestedStep={stepOfHash(shownHash.current)}
        here={hash !== null}
        navigate={navigate}
      />
    </RequirePermissions>
  );
}
