import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { SectionPlaceholder } from '../../../components/section-placeholder.tsx';

export const Route = createFileRoute('/_secure/access/service-user')({
  component: () => (
    <RequirePermissions flags={[]} anyOf={['canViewUser', 'canManageAccountUser', 'canManageSystemUser']}>
      <SectionPlaceholder title={<Trans>Service users</Trans>} />
    </RequirePermissions>
  ),
});
