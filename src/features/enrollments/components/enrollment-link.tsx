import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import {
  ENROLLMENT_CODE_TTL_DAYS,
  type EnrollmentCreated,
} from '../../../../contract/schemas/enrollments.ts';
import { CreatedToken } from '../../../components/created-token.tsx';

/**
 * A new enrollment link, shown this once with Copy: the platform mailed it to the person or the
 * device's technician too, and it works for a week. The link holds the code, so it lives in the
 * caller's state only: never in a query, the address or storage.
 */
export function EnrollmentLink({
  created,
  onDone,
  doneLabel,
}: {
  created: EnrollmentCreated;
  onDone: () => void;
  doneLabel: ReactNode;
}) {
  const { t } = useLingui();
  const email = created.enrollment.seat.email;
  const days = ENROLLMENT_CODE_TTL_DAYS;
  return (
    <div className="enrollment-link">
      <CreatedToken
        name={created.enrollment.seat.name}
        value={created.enrollment_url}
        label={t`Enrollment link`}
        notice={
          <Trans>
            Copy this link now; it will not be shown again. It was also mailed to {email} and works for {days}{' '}
            days, on the computer that should hold the certificate.
          </Trans>
        }
        copyFailedText={<Trans>Could not copy. Select the link and copy it yourself.</Trans>}
        doneLabel={doneLabel}
        onDone={onDone}
      />
    </div>
  );
}
