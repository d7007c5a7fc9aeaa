import { Trans } from '@lingui/react/macro';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { RouteErrorPage } from '../../../components/route-error-page.tsx';

/** The organization and contact routes' error page: the shared one, with the way back to the list. */
export function OrganizationsErrorPage({ error }: ErrorComponentProps) {
  return (
    <RouteErrorPage
      error={error}
      notFound={{
        title: <Trans>Not found</Trans>,
        text: <Trans>This organization or contact does not exist, or you cannot see it.</Trans>,
      }}
      failedTitle={<Trans>This page could not be loaded</Trans>}
      back={{ to: '/ca/organizations', label: <Trans>Go to organizations</Trans> }}
    />
  );
}
