import { Trans } from '@lingui/react/macro';
import { ApiError } from '../lib/api-client.ts';
import { Alert } from './ui/alert.tsx';

/**
 * A form's failed submission: the server's own explanation (it says which field or which licence
 * problem), or a general sentence when the server could not be reached.
 */
export function ServerErrorAlert({ error }: { error: Error }) {
  return (
    <Alert tone="error">
      {error instanceof ApiError && error.message ? (
        error.message
      ) : (
        <Trans>The server could not be reached. Check your connection and try again.</Trans>
      )}
    </Alert>
  );
}
