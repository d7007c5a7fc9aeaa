import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { MessagePage } from './message-page.tsx';

/** The alternative page of a failed check that required viewing the account (C-28). */
export function AccountUnavailablePage() {
  return (
    <MessagePage title={<Trans>This account cannot be viewed</Trans>}>
      <p>
        <Trans>
          Your roles do not allow you to view this account. Choose another account, or ask an administrator of
          this account for access.
        </Trans>
      </p>
      <p>
        <Link to="/accounts">
          <Trans>Go to the accounts list</Trans>
        </Link>
      </p>
    </MessagePage>
  );
}
