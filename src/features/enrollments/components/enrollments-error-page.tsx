import { Trans } from '@lingui/react/macro';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { RouteErrorPage } from '../../../components/route-error-page.tsx';

/** The enrollment routes' error page: the shared one, with the way back to the list. */
export function EnrollmentsErrorPage({ error }: ErrorComponentProps) {
  return (
    <RouteErrorPage
      error={error}
      notFound={{
        title: <Trans>Enrollment not found</Trans>,
        text: <Trans>This enrollment does not exist, or is not one you can see.</Trans>,
      }}
      failedTitle={<Trans>The enrollment could not be loaded</Trans>}
      back={{ to: '/ca/enrollments', label: <Trans>Go to enrollments</Trans> }}
    />
  );
}
