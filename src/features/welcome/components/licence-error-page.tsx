import { Trans } from '@lingui/react/macro';
import { PublicLayout } from '../../../components/public-layout.tsx';

/** Where an expired licence leads after sign-in (A-23). */
export function LicenceErrorPage() {
  return (
    <PublicLayout title={<Trans>The license has expired</Trans>}>
      <p>
        <Trans>
          The platform's license is no longer valid, so the console cannot be used until it is renewed.
        </Trans>
      </p>
      <h2>
        <Trans>What to do next</Trans>
      </h2>
      <ol>
        <li>
          <Trans>Contact your vendor to obtain a renewed license text.</Trans>
        </li>
        <li>
          <Trans>Give it to a system administrator of the platform to install.</Trans>
        </li>
        <li>
          <Trans>Sign in again once the new license is installed.</Trans>
        </li>
      </ol>
    </PublicLayout>
  );
}
