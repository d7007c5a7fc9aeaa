import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { PublicLayout } from '../../../components/public-layout.tsx';

/** Any path of the console without a screen (overview §2). */
export function NotFoundPage() {
  return (
    <PublicLayout title={<Trans>Page not found</Trans>}>
      <p>
        <Trans>
          The address you opened does not exist in the console. Check it, or continue from the accounts list.
        </Trans>
      </p>
      <p>
        <Link to="/accounts" className="button button--primary">
          <Trans>Go to accounts</Trans>
        </Link>
      </p>
    </PublicLayout>
  );
}
