import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Enrollment } from '../../../../contract/schemas/enrollments.ts';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { SectionEmpty } from '../../../components/section-card.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { userDate } from '../../../lib/dates.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { ENROLLMENT_MANAGE_FLAGS, ENROLLMENT_READ_FLAGS } from '../access.ts';
import { enrollmentListQuery } from '../list-search.ts';
import { enrollmentListQueryOptions } from '../queries.ts';
import { EnrollmentStatusBadge, SEAT_KIND_LABELS } from './enrollment-labels.tsx';
import './enrollments.css';

/** How many of the latest enrollments a details page shows before it links to the list. */
const LATEST = 5;

function useEnrollmentAccess() {
  const permissions = usePermissionFlags();
  return {
    reads: ENROLLMENT_READ_FLAGS.every((flag) => permissions[flag]),
    manages: ENROLLMENT_MANAGE_FLAGS.every((flag) => permissions[flag]),
  };
}

function LatestEnrollments({ rows }: { rows: readonly Enrollment[] }) {
  const { i18n } = useLingui();
  const viewer = useProfile();
  return (
    <ul>
      {rows.map((row) => (
        <li key={row.id}>
          <Link to="/ca/enrollments/$id" params={{ id: row.id }}>
            {row.seat.name}
          </Link>
          <span className="enrollments__secondary">
            {i18n._(SEAT_KIND_LABELS[row.seat.kind])} · {row.profile_name} ·{' '}
            {userDate(row.created_at, viewer.date_format, i18n.locale)}
          </span>
          <EnrollmentStatusBadge status={row.status} />
        </li>
      ))}
    </ul>
  );
}

/**
 * The account details page's Enrollments section: the account's latest enrollments, the way to all of
 * them, and New enrollment in this account. Nothing without view enrollment.
 */
export function AccountEnrollments({ accountId }: { accountId: string }) {
  const { reads, manages } = useEnrollmentAccess();
  const list = useQuery({
    ...enrollmentListQueryOptions(enrollmentListQuery({ account: accountId }, LATEST)),
    enabled: reads,
  });
  if (!reads) return null;
  return (
    <div className="enrollments-section">
      <QueryStatus
        query={list}
        pendingText={<Trans>Loading enrollments…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: (
            <SectionEmpty>
              <Trans>No one in this account has been enrolled yet.</Trans>
            </SectionEmpty>
          ),
        }}
      >
        {({ items, total }) => (
          <>
            <LatestEnrollments rows={items} />
            <p>
              <Link to="/ca/enrollments" search={{ account: accountId }}>
                <Trans>All {total} enrollments of this account</Trans>
              </Link>
            </p>
          </>
        )}
      </QueryStatus>
      {manages ? (
        <p>
          <Link
            to="/ca/enrollments/create"
            search={{ account: accountId }}
            className="button button--secondary"
          >
            <Trans>New enrollment</Trans>
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/**
 * The administrator details page's Enrollments section: the person's enrollments in every account
 * the viewer sees, and Enroll a certificate for them in their primary account.
 */
export function PersonEnrollments({ userId, accountId }: { userId: string; accountId: string }) {
  const { reads, manages } = useEnrollmentAccess();
  const list = useQuery({
    ...enrollmentListQueryOptions(enrollmentListQuery({ user: userId })),
    enabled: reads,
  });
  if (!reads) return null;
  return (
    <section aria-labelledby="person-enrollments" className="enrollments-section">
      <h2 id="person-enrollments">
        <Trans>Enrollments</Trans>
      </h2>
      <QueryStatus query={list} pendingText={<Trans>Loading enrollments…</Trans>}>
        {({ items }) =>
          items.length === 0 ? (
            <SectionEmpty>
              <Trans>This person has not been enrolled yet.</Trans>
            </SectionEmpty>
          ) : (
            <>
              <LatestEnrollments rows={items.slice(0, LATEST)} />
              <p>
                <Link to="/ca/enrollments" search={{ user: userId }}>
                  <Trans>All enrollments of this person</Trans>
                </Link>
              </p>
            </>
          )
        }
      </QueryStatus>
      {manages ? (
        <p>
          <Link
            to="/ca/enrollments/create"
            search={{ account: accountId, user: userId }}
            className="button button--secondary"
          >
            <Trans>Enroll a certificate</Trans>
          </Link>
        </p>
      ) : null}
    </section>
  );
}
