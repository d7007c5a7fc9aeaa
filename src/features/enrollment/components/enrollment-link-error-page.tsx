import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { EnrollmentLinkFailure } from '../../../../contract/schemas/enrollments.ts';
import { PublicLayout } from '../../../components/public-layout.tsx';

/**
 * /clientAuthLoginVerificationError/{status} (overview §2, §4, §8): where a link whose enrollment
 * could not be opened leads, by the lowercased status of the failure, with the answer's code as
 * `reason` where the status alone does not say what happened (decision 031: 409 is used or
 * cancelled) and, for 429, when to try again.
 */
export function EnrollmentLinkErrorPage({
  errorCode,
  reason,
  retryAt,
}: {
  errorCode: string;
  reason?: EnrollmentLinkFailure | undefined;
  retryAt?: string | undefined;
}) {
  const failure = reason ?? failureOfStatus(errorCode.toLowerCase());
  const { title, explanation, newLinkHelps } = messageFor(failure, retryAt);
  return (
    <PublicLayout title={title}>
      <p>{explanation}</p>
      {newLinkHelps ? (
        <p>
          <Trans>
            Ask the administrator who sent you the link for a new one. The new link replaces this one, and it
            works on this computer as well.
          </Trans>
        </p>
      ) : null}
    </PublicLayout>
  );
}

/** What a bare status (an older link error address, without its reason) most likely meant. */
function failureOfStatus(errorCode: string): EnrollmentLinkFailure | null {
  switch (errorCode) {
    case '404':
    case 'notfound':
      return 'notFound';
    case '410':
    case 'gone':
    case 'expired':
      return 'enrollmentExpired';
    case '409':
    case 'conflict':
      return 'enrollmentUsed';
    case '429':
    case 'toomanyrequests':
      return 'throttled';
    default:
      return null;
  }
}

function RetryTime({ at }: { at: string | undefined }) {
  const { i18n } = useLingui();
  const when = at === undefined ? null : new Date(at);
  if (when === null || Number.isNaN(when.getTime())) {
    return <Trans>Open the link again in a few minutes.</Trans>;
  }
  const time = i18n.date(when, { hour: 'numeric', minute: '2-digit' });
  return <Trans>Open the link again after {time}.</Trans>;
}

function messageFor(
  failure: EnrollmentLinkFailure | null,
  retryAt: string | undefined,
): { title: ReactNode; explanation: ReactNode; newLinkHelps: boolean } {
  switch (failure) {
    case 'notFound':
      return {
        title: <Trans>This enrollment link is not known</Trans>,
        explanation: (
          <Trans>
            The link does not open an enrollment. Check that you opened the whole link from the e-mail.
          </Trans>
        ),
        newLinkHelps: true,
      };
    case 'enrollmentExpired':
      return {
        title: <Trans>This enrollment link has expired</Trans>,
        explanation: <Trans>An enrollment link works for 7 days, and this one is older.</Trans>,
        newLinkHelps: true,
      };
    case 'enrollmentUsed':
      return {
        title: <Trans>This enrollment link was used already</Trans>,
        explanation: (
          <Trans>
            A certificate was already issued through this link; a link issues one certificate only.
          </Trans>
        ),
        newLinkHelps: true,
      };
    case 'enrollmentCancelled':
      return {
        title: <Trans>This enrollment was cancelled</Trans>,
        explanation: <Trans>An administrator cancelled the enrollment, so its link opens nothing.</Trans>,
        newLinkHelps: true,
      };
    case 'throttled':
      return {
        title: <Trans>Too many attempts for now</Trans>,
        explanation: (
          <>
            <Trans>
              Too many wrong enrollment codes came from your network, so it has to wait a while. Your link
              still works.
            </Trans>{' '}
            <RetryTime at={retryAt} />
          </>
        ),
        newLinkHelps: false,
      };
    default:
      return {
        title: <Trans>This enrollment link cannot be opened</Trans>,
        explanation: <Trans>The enrollment could not be loaded.</Trans>,
        newLinkHelps: true,
      };
  }
}
