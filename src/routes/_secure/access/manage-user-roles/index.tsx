import { createFileRoute } from '@tanstack/react-router';
import { RolesErrorPage, RolesGate } from '../../../../features/roles/components/roles-gate.tsx';
import { RolesListPage } from '../../../../features/roles/components/roles-list-page.tsx';
import { roleListQuery, roleListSearchSchema } from '../../../../features/roles/list-search.ts';
import { roleListQueryOptions } from '../../../../features/roles/queries.ts';

export const Route = createFileRoute('/_secure/access/manage-user-roles/')({
  validateSearch: roleListSearchSchema,
  loaderDeps: ({ search }) => search,
  // Prefetch, not load: the page shows a failed list in place, after the permission check.
  loader: async ({ context: { screenData }, deps }) => {
    await screenData.preload(roleListQueryOptions(roleListQuery(deps)));
  },
  errorComponent: RolesErrorPage,
  component: function RolesListRoute() {
    return (
      <RolesGate>
        <RolesListPage search={Route.useSearch()} />
      </RolesGate>
    );
  },
});
