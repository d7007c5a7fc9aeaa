import { Trans } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * After a 412 (someone changed the item since the page loaded it), the way to its current version;
 * the server's own message is shown above it by the form's alert. Nothing for any other failure.
 */
export function ReloadOnConflict({ error, onReload }: { error: Error; onReload: () => void }) {
  if (!(error instanceof ApiError && error.status === 412)) return null;
  return (
    <p>
      <Button variant="secondary" onClick={onReload}>
        <Trans>Reload the current version</Trans>
      </Button>
    </p>
  );
}
