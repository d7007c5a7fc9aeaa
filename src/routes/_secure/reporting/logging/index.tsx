import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { AuditLogErrorPage } from '../../../../features/audit-log/components/audit-log-error-page.tsx';
import { AuditLogPage } from '../../../../features/audit-log/components/audit-log-page.tsx';
import { auditLogListQuery, auditLogSearchSchema } from '../../../../features/audit-log/list-search.ts';
import { auditLogListQueryOptions } from '../../../../features/audit-log/queries.ts';

export const Route = createFileRoute('/_secure/reporting/logging/')({
  validateSearch: auditLogSearchSchema,
  loaderDeps: ({ search }) => search,
  // Prefetch, not load: the permission check decides first between the page and the 403 page.
  loader: async ({ context: { screenData }, deps }) => {
    await screenData.preload(auditLogListQueryOptions(auditLogListQuery(deps)));
  },
  errorComponent: AuditLogErrorPage,
  component: function AuditLogRoute() {
    return (
      <RequirePermissions flags={['canViewAuditLog']}>
        <AuditLogPage search={Route.useSearch()} />
      </RequirePermissions>
    );
  },
});
