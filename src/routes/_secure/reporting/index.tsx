import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { ReportingPage } from '../../../features/audit-log/components/reporting-page.tsx';

export const Route = createFileRoute('/_secure/reporting/')({
  component: () => (
    <RequirePermissions flags={['canViewAuditLog']}>
      <ReportingPage />
    </RequirePermissions>
  ),
});
