import { Trans } from '@lingui/react/macro';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { RouteErrorPage } from '../../../components/route-error-page.tsx';

/** The service-user routes' error page: the shared one, with the way back to the list. */
export function ServiceUsersErrorPage({ error }: ErrorComponentProps) {
  return (
    <RouteErrorPage
      error={error}
      notFound={{
        title: <Trans>Service user not found</Trans>,
        text: (
          <Trans>
            This service user does not exist, or is not one you can see. It may have been deleted.
          </Trans>
        ),
      }}
      failedTitle={<Trans>The service user could not be loaded</Trans>}
      back={{ to: '/access/service-user', label: <Trans>Go to service users</Trans> }}
    />
  );
}
