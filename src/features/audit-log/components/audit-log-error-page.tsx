import { Trans } from '@lingui/react/macro';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { RouteErrorPage } from '../../../components/route-error-page.tsx';

/** The audit log routes' error page: the shared one, with the way back to the log. */
export function AuditLogErrorPage({ error }: ErrorComponentProps) {
  return (
    <RouteErrorPage
      error={error}
      notFound={{
        title: <Trans>Audit event not found</Trans>,
        text: <Trans>This audit event does not exist, or is not one you can see.</Trans>,
      }}
      failedTitle={<Trans>The audit event could not be loaded</Trans>}
      back={{ to: '/reporting/logging', label: <Trans>Go to the audit log</Trans> }}
    />
  );
}
