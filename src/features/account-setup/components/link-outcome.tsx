import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { encodeSignInState } from '../../../../contract/schemas/identity.ts';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { ApiError } from '../../../lib/api-client.ts';

/** Whether a failed call means the mailed link is no good any more (unknown, used, expired…). */
export function isExpiredLink(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'linkExpired';
}

/** The link to the sign-in page, with the user name filled in when known. */
function SignInLink({ userName }: { userName?: string | undefined }) {
  return (
    <Link to="/login" search={{ state: encodeSignInState(userName ? { login_hint: userName } : {}) }}>
      <Trans>Go to sign-in</Trans>
    </Link>
  );
}

/** What the page shows once the link did its work. */
export function LinkDonePage({
  title,
  children,
  userName,
}: {
  title: ReactNode;
  children: ReactNode;
  userName?: string | undefined;
}) {
  return (
    <PublicLayout title={title}>
      <div role="status">
        <p>{children}</p>
      </div>
      <p>
        <SignInLink userName={userName} />
      </p>
    </PublicLayout>
  );
}

/** The page-level error of a link that is unknown, already used, superseded or expired. */
export function LinkExpiredPage() {
  return (
    <PublicLayout title={<Trans>This link no longer works</Trans>}>
      <Alert tone="error">
        <p>
          <Trans>
            The link has expired, was already used, or a newer one was sent. Ask your administrator to send a
            new one, or sign in if you already set your password.
          </Trans>
        </p>
      </Alert>
      <p>
        <SignInLink />
      </p>
    </PublicLayout>
  );
}
