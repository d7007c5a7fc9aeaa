import { Trans } from '@lingui/react/macro';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { type ErrorComponentProps, Link, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { MessagePage } from '../../../components/message-page.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * What an account page shows when the account could not be loaded: not found (the server answers 404
 * for an account the viewer cannot see, too), or a failure that may pass on a second try.
 */
export function AccountDetailsLoadError({ error }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  useEffect(() => {
    // Lets the page's query fetch again when the route is retried, instead of rethrowing this error.
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);

  if (error instanceof ApiError && error.status === 404) {
    return (
      <MessagePage title={<Trans>Account not found</Trans>}>
        <p>
          <Trans>This account does not exist, or it is not one you can see. It may have been deleted.</Trans>
        </p>
        <p>
          <Link to="/accounts">
            <Trans>Go to the accounts list</Trans>
          </Link>
        </p>
      </MessagePage>
    );
  }
  return (
    <MessagePage title={<Trans>The account could not be loaded</Trans>}>
      <p>
        {error instanceof ApiError && error.message ? (
          error.message
        ) : (
          <Trans>The server could not be reached. Check your connection and try again.</Trans>
        )}
      </p>
      <p className="account-section__actions">
        <Button onClick={() => void router.invalidate()}>
          <Trans>Try again</Trans>
        </Button>
        <Link to="/accounts">
          <Trans>Go to the accounts list</Trans>
        </Link>
      </p>
    </MessagePage>
  );
}
