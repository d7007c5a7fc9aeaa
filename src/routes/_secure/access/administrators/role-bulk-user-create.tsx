import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { BulkUserCreateRoute } from '../../../../features/bulk-import/route-page.tsx';
import { type BulkSearch, bulkSearchSchema } from '../../../../features/bulk-import/search.ts';

export const Route = createFileRoute('/_secure/access/administrators/role-bulk-user-create')({
  validateSearch: bulkSearchSchema,
  component: function BulkUserCreateFileRoute() {
    const navigate = Route.useNavigate();
    const go = useCallback(
      (search: BulkSearch, step: number, options: { replace?: boolean } = {}) =>
        void navigate({ search, hash: `step=${step}`, replace: options.replace ?? false }),
      [navigate],
    );
    return <BulkUserCreateRoute search={Route.useSearch()} navigate={go} />;
  },
});
