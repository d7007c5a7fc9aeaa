import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { CertificateOwner } from '../queries.ts';
import './client-auth.css';

/** The way from a user's details page to their client certificates, beside the API tokens. */
export function ClientAuthLink({ owner }: { owner: CertificateOwner }) {
  return (
    <section aria-labelledby="client-certificates">
      <h2 id="client-certificates">
        <Trans>Client certificates</Trans>
      </h2>
      <p className="client-auth__hint">
        <Trans>Certificates that sign this user in without a password.</Trans>
      </p>
      {owner.kind === 'person' ? (
        <Link to="/access/administrators/$id/client-auth" params={{ id: owner.id }}>
          <Trans>Manage client certificates</Trans>
        </Link>
      ) : (
        <Link to="/access/service-user/$id/client-auth" params={{ id: owner.id }}>
          <Trans>Manage client certificates</Trans>
        </Link>
      )}
    </section>
  );
}
