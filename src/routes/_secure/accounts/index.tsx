import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import * as v from 'valibot';
import { pageSearch } from '../../../components/list/list-search.ts';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { AccountsListPage } from '../../../features/accounts/components/accounts-list-page.tsx';

export const Route = createFileRoute('/_secure/accounts/')({
  // The page is in the address so Back returns to it; filters and sort are the user's stored preferences.
  validateSearch: v.object({ page: pageSearch }),
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  // Imported on demand: the route definitions load with the first screen, the list's code with the list.
  loader: async ({ context: { screenData }, deps }) => {
    const { prefetchAccountList } = await import('../../../features/accounts/list-state.ts');
    await prefetchAccountList(screenData, deps.page);
  },
  component: AccountsRoute,
});

function AccountsRoute() {
  const { page = 1 } = Route.useSearch();
  const navigate = Route.useNavigate();
  const changePage = useCallback(
    (next: number, options?: { replace: boolean }) =>
      void navigate({ search: { page: next > 1 ? next : undefined }, replace: options?.replace }),
    [navigate],
  );
  return (
    <RequirePermissions flags={['canViewAccount']}>
      <AccountsListPage page={page} onPageChange={changePage} />
    </RequirePermissions>
  );
}
