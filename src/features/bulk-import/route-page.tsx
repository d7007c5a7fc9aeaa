import { useRouterState } from '@tanstack/react-router';
import { RequirePermissions } from '../../components/require-permissions.tsx';
import { type BulkNavigate, BulkUserCreatePage } from './components/bulk-user-create-page.tsx';
import { type BulkSearch, stepOfHash } from './search.ts';

/**
 * What both routes of the pair render (`bulk-user-create` and `role-bulk-user-create`, decision 018
 * §8.3): the same page, which offers custom roles only with the roles feature on. Creating users
 * needs manage user (the server checks the account's scope too).
 */
export function BulkUserCreateRoute({ search, navigate }: { search: BulkSearch; navigate: BulkNavigate }) {
  const hash = useRouterState({ select: (state) => state.location.hash });
  return (
    <RequirePermissions flags={['canManageUser']}>
      <BulkUserCreatePage search={search} requestedStep={stepOfHash(hash)} navigate={navigate} />
    </RequirePermissions>
  );
}
