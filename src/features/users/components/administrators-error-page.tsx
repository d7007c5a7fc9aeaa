import { Trans } from '@lingui/react/macro';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { RouteErrorPage } from '../../../components/route-error-page.tsx';

/** The administrator routes' error page: the shared one, with the way back to the list. */
export function AdministratorsErrorPage({ error }: ErrorComponentProps) {
  return (
    <RouteErrorPage
      error={error}
      notFound={{
        title: <Trans>Administrator not found</Trans>,
        text: (
          <Trans>
            This administrator does not exist, or is not one you can see. They may have been deleted.
          </Trans>
        ),
      }}
      failedTitle={<Trans>The administrator could not be loaded</Trans>}
      back={{ to: '/access/administrators', label: <Trans>Go to administrators</Trans> }}
    />
  );
}
