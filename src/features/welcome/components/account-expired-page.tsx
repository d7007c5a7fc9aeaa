import { Trans } from '@lingui/react/macro';
import { PublicLayout } from '../../../components/public-layout.tsx';

export function AccountExpiredPage() {
  return (
    <PublicLayout title={<Trans>Your account has expired</Trans>}>
      <p>
        <Trans>
          The service period of your account has ended, so its applications are no longer available.
        </Trans>
      </p>
      <h2>
        <Trans>What to do next</Trans>
      </h2>
      <ol>
        <li>
          <Trans>Ask the administrator of your account, or your partner, to extend the service period.</Trans>
        </li>
        <li>
          <Trans>Sign in again once the account is active.</Trans>
        </li>
      </ol>
    </PublicLayout>
  );
}
