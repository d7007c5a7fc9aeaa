import { Trans } from '@lingui/react/macro';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { RouteErrorPage } from '../../../components/route-error-page.tsx';

/** The account routes' error page: the shared one, with the account's words and the way back to the list. */
export function AccountDetailsLoadError({ error }: ErrorComponentProps) {
  return (
    <RouteErrorPage
      error={error}
      notFound={{
        title: <Trans>Account not found</Trans>,
        text: (
          <Trans>This account does not exist, or it is not one you can see. It may have been deleted.</Trans>
        ),
      }}
      failedTitle={<Trans>The account could not be loaded</Trans>}
      back={{ to: '/accounts', label: <Trans>Go to the accounts list</Trans> }}
    />
  );
}
