import { Trans } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { ErrorComponentProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { MessagePage } from '../../../components/message-page.tsx';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { RouteErrorPage } from '../../../components/route-error-page.tsx';
import { featureFlagsQueryOptions } from '../../../lib/feature-flags.ts';
import { ROLE_READ_FLAGS } from '../access.ts';

/**
 * The role pages' guard (decision 039 §10): view or manage user role, and the roles feature on;
 * with the feature off, a page says so instead (§8.6). `manage` pages need manage user role.
 */
export function RolesGate({ manage = false, children }: { manage?: boolean; children: ReactNode }) {
  // Until the flags have loaded the pages show (the server refuses what the flag forbids); only a
  // flag known to be off replaces them, so the notice never flashes on the way in.
  const flags = useQuery(featureFlagsQueryOptions()).data;
  if (flags?.roles === false) {
    return (
      <MessagePage title={<Trans>User roles are switched off</Trans>}>
        <p>
          <Trans>
            Custom roles are not available on this platform. Built-in roles keep working; ask a system
            administrator to switch user roles on.
          </Trans>
        </p>
      </MessagePage>
    );
  }
  return (
    <RequirePermissions flags={manage ? ['canManageUserRole'] : []} anyOf={ROLE_READ_FLAGS}>
      {children}
    </RequirePermissions>
  );
}

/** The role routes' error page: the shared one, with the way back to the roles list. */
export function RolesErrorPage({ error }: ErrorComponentProps) {
  return (
    <RouteErrorPage
      error={error}
      notFound={{
        title: <Trans>Role not found</Trans>,
        text: <Trans>This role does not exist, or is not one you can see.</Trans>,
      }}
      failedTitle={<Trans>The role could not be loaded</Trans>}
      back={{ to: '/access/manage-user-roles', label: <Trans>Go to user roles</Trans> }}
    />
  );
}
