import { Trans, useLingui } from '@lingui/react/macro';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorNotificationTexts } from '../../../lib/error-messages.ts';

/**
 * A failed account request: a title from the status ("Error 403") over the server's own explanation
 * (account administration §8, H-17), or our sentence for the status when the server sent none.
 */
export function AccountErrorAlert({ error, onReload }: { error: Error; onReload?: () => void }) {
  const { i18n } = useLingui();
  if (!(error instanceof ApiError)) {
    return (
      <Alert tone="error">
        <p className="account-error__title">
          <Trans>Error</Trans>
        </p>
        <p>
          <Trans>The server could not be reached. Check your connection and try again.</Trans>
        </p>
      </Alert>
    );
  }
  const status = error.status;
  const message = error.message || errorNotificationTexts({ status, message: '' }, i18n)[0];
  return (
    <Alert tone="error">
      <p className="account-error__title">
        <Trans>Error {status}</Trans>
      </p>
      {message ? <p>{message}</p> : null}
      {status === 412 && onReload ? (
        <p>
          <Button variant="secondary" onClick={onReload}>
            <Trans>Reload the current version</Trans>
          </Button>
        </p>
      ) : null}
    </Alert>
  );
}
