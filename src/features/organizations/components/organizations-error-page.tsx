import { Trans } from '@lingui/react/macro';
import { Link, useRouter } from '@tanstack/react-router';
import { ForbiddenPage } from '../../../components/forbidden-page.tsx';
import { MessagePage } from '../../../components/message-page.tsx';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * What an organizations page shows when its data could not be loaded. The server answers 404 for
 * what the user cannot see, so "not found" does not say whether it exists; 403 is the 403 page.
 */
export function OrganizationsErrorPage({ error }: { error: unknown }) {
  const router = useRouter();
  if (error instanceof ApiError && error.status === 403) return <ForbiddenPage />;
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <MessagePage title={notFound ? <Trans>Not found</Trans> : <Trans>This page could not be loaded</Trans>}>
      {notFound ? (
        <Alert tone="warning">
          <Trans>This organization or contact does not exist, or you cannot see it.</Trans>
        </Alert>
      ) : (
        <ServerErrorAlert error={error instanceof Error ? error : new Error(String(error))} />
      )}
      <div className="organizations-actions">
        {notFound ? null : (
          <Button onClick={() => void router.invalidate()}>
            <Trans>Try again</Trans>
          </Button>
        )}
        <Link to="/ca/organizations" className="button button--secondary">
          <Trans>Go to organizations</Trans>
        </Link>
      </div>
    </MessagePage>
  );
}
