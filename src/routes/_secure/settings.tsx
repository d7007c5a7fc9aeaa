import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../components/require-permissions.tsx';
import { SectionPlaceholder } from '../../components/section-placeholder.tsx';

export const Route = createFileRoute('/_secure/settings')({
  component: () => (
    <RequirePermissions flags={[]} anyOf={['canManageSystemSettings', 'canViewLicense', 'canManageLicense']}>
      <SectionPlaceholder title={<Trans>Platform settings</Trans>} />
    </RequirePermissions>
  ),
});
