import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { SectionPlaceholder } from '../../../components/section-placeholder.tsx';

export const Route = createFileRoute('/_secure/reporting/')({
  component: () => (
    <RequirePermissions flags={['canViewAuditLog']}>
      <SectionPlaceholder title={<Trans>Reporting</Trans>} />
    </RequirePermissions>
  ),
});
