import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';

/** The alternative page of a failed check that required viewing the account (C-28). */
export function AccountUnavailablePage() {
  return (
    <section className="page page--message" aria-labelledby="account-unavailable-title">
      <h1 id="account-unavailable-title" className="page__title">
        <Trans>This account cannot be viewed</Trans>
      </h1>
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
    </section>
  );
}
