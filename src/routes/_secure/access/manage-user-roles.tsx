import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { SectionPlaceholder } from '../../../components/section-placeholder.tsx';

export const Route = createFileRoute('/_secure/access/manage-user-roles')({
  component: () => (
    <RequirePermissions flags={[]} anyOf={['canViewUserRole', 'canManageUserRole']}>
      <SectionPlaceholder title={<Trans>User roles</Trans>} />
    </RequirePermissions>
  ),
});
