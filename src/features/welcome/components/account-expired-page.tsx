import { Trans } from '@lingui/react/macro';
import { NextStepsPage } from './next-steps-page.tsx';

export function AccountExpiredPage() {
  return (
    <NextStepsPage
      title={<Trans>Your account has expired</Trans>}
      explanation={
        <Trans>
          The service period of your account has ended, so its applications are no longer available.
        </Trans>
      }
      steps={[
        {
          id: 'extend',
          text: (
            <Trans>
              Ask the administrator of your account, or your partner, to extend the service period.
            </Trans>
          ),
        },
        { id: 'sign-in', text: <Trans>Sign in again once the account is active.</Trans> },
      ]}
    />
  );
}
