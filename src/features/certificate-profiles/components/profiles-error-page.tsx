import { Trans } from '@lingui/react/macro';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { RouteErrorPage } from '../../../components/route-error-page.tsx';

/** The profile routes' error page: the shared one, with the way back to the list. */
export function ProfilesErrorPage({ error }: ErrorComponentProps) {
  return (
    <RouteErrorPage
      error={error}
      notFound={{
        title: <Trans>Certificate profile not found</Trans>,
        text: (
          <Trans>
            This certificate profile does not exist, or is not one you can see. It may have been deleted.
          </Trans>
        ),
      }}
      failedTitle={<Trans>The certificate profile could not be loaded</Trans>}
      back={{ to: '/ca/profiles', label: <Trans>Go to certificate profiles</Trans> }}
    />
  );
}
