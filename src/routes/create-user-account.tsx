import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PublicLayout } from '../components/public-layout.tsx';

/** Linked from sign-in when a flow allows creating an account; the form comes with its own work. */
export const Route = createFileRoute('/create-user-account')({
  component: () => (
    <PublicLayout title={<Trans>Create an account</Trans>}>
      <p role="status">
        <Trans>Creating an account here is not available yet. Ask your administrator to invite you.</Trans>
      </p>
    </PublicLayout>
  ),
});
