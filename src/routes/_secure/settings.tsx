import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenPage } from '../../components/forbidden-page.tsx';
import { RequirePermissions } from '../../components/require-permissions.tsx';
import { SectionPlaceholder } from '../../components/section-placeholder.tsx';
import { useProfile } from '../../lib/current-user.ts';

export const Route = createFileRoute('/_secure/settings')({
  component: function PlatformSettingsRoute() {
    // The platform's settings belong to the system scope (C-08), whatever a partner's role holds:
    // the navigation leaves the item out below it, and its address answers the same.
    if (useProfile().access_scope !== 'system') return <ForbiddenPage />;
    return (
      <RequirePermissions
        flags={[]}
        anyOf={['canManageSystemSettings', 'canViewLicense', 'canManageLicense']}
      >
        <SectionPlaceholder title={<Trans>Platform settings</Trans>} />
      </RequirePermissions>
    );
  },
});
