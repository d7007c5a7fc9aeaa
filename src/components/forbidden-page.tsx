import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';

/** The page of a failed permission check (C-29). */
export function ForbiddenPage() {
  return (
    <section className="page page--message" aria-labelledby="forbidden-title">
      <h1 id="forbidden-title" className="page__title">
        403
      </h1>
      <p>
        <Trans>You do not have permission to view this page.</Trans>
      </p>
      <p>
        <Link to="/accounts">
          <Trans>Go to accounts</Trans>
        </Link>
      </p>
    </section>
  );
}
