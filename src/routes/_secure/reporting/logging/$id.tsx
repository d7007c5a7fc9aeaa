import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { AuditEventPage } from '../../../../features/audit-log/components/audit-event-page.tsx';
import { AuditLogErrorPage } from '../../../../features/audit-log/components/audit-log-error-page.tsx';
import { auditEventQueryOptions } from '../../../../features/audit-log/queries.ts';

export const Route = createFileRoute('/_secure/reporting/logging/$id')({
  loader: async ({ context: { screenData }, params }) => {
    await screenData.load(auditEventQueryOptions(params.id));
  },
  errorComponent: AuditLogErrorPage,
  component: function AuditEventRoute() {
    const { id } = Route.useParams();
    return (
      <RequirePermissions flags={['canViewAuditLog']}>
        <AuditEventPage id={id} />
      </RequirePermissions>
    );
  },
});
