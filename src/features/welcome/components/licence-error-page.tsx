import { Trans } from '@lingui/react/macro';
import { NextStepsPage } from './next-steps-page.tsx';

/** Where an expired licence leads after sign-in (A-23). */
export function LicenceErrorPage() {
  return (
    <NextStepsPage
      title={<Trans>The licence has expired</Trans>}
      explanation={
        <Trans>
          The platform's license is no longer valid, so the console cannot be used until it is renewed.
        </Trans>
      }
      steps={[
        { id: 'renew', text: <Trans>Contact your vendor to obtain a renewed licence text.</Trans> },
        { id: 'install', text: <Trans>Give it to a system administrator of the platform to install.</Trans> },
        { id: 'sign-in', text: <Trans>Sign in again once the new licence is installed.</Trans> },
      ]}
    />
  );
}
