import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { MessagePage } from './message-page.tsx';

/** The page of a failed permission check (C-29). */
export function ForbiddenPage() {
  return (
    <MessagePage title={403}>
      <p>
        <Trans>You do not have permission to view this page.</Trans>
      </p>
      <p>
        <Link to="/accounts">
          <Trans>Go to accounts</Trans>
        </Link>
      </p>
    </MessagePage>
  );
}
