import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { PublicLayout } from '../../../components/public-layout.tsx';

/**
 * /clientAuthLoginVerificationError/{status} (overview §2, §4, §8): where a link whose enrollment
 * could not be opened leads, by the lowercased status of the failure (decision 021 §2: unknown and
 * wrong codes answer 404, expired 410, used 409, too many wrong codes 429).
 */
export function EnrollmentLinkErrorPage({ errorCode }: { errorCode: string }) {
  const { title, explanation } = messageFor(errorCode.toLowerCase());
  return (
    <PublicLayout title={title}>
      <p>{explanation}</p>
      <p>
        <Trans>
          Ask the administrator who sent you the link for a new one. The new link replaces this one, and it
          works on this computer as well.
        </Trans>
      </p>
    </PublicLayout>
  );
}

function messageFor(errorCode: string): { title: ReactNode; explanation: ReactNode } {
  switch (errorCode) {
    case '404':
    case 'notfound':
      return {
        title: <Trans>This enrollment link is not known</Trans>,
        explanation: (
          <Trans>
            The link does not open an enrollment. Check that you opened the whole link from the e-mail.
          </Trans>
        ),
      };
    case '410':
    case 'gone':
    case 'expired':
      return {
        title: <Trans>This enrollment link has expired</Trans>,
        explanation: <Trans>An enrollment link works for 7 days, and this one is older.</Trans>,
      };
    case '409':
    case 'conflict':
      return {
        title: <Trans>This enrollment link was used already</Trans>,
        explanation: (
          <Trans>
            A certificate was already issued through this link; a link issues one certificate only.
          </Trans>
        ),
      };
    case '429':
    case 'toomanyrequests':
      return {
        title: <Trans>This enrollment link is blocked</Trans>,
        explanation: (
          <Trans>
            Too many attempts were made with a wrong code, so the enrollment stopped accepting its link.
          </Trans>
        ),
      };
    default:
      return {
        title: <Trans>This enrollment link cannot be opened</Trans>,
        explanation: <Trans>The enrollment could not be loaded.</Trans>,
      };
  }
}
