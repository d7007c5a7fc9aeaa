import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import {
  ENROLLMENT_CODE_TTL_DAYS,
  type Enrollment,
  type EnrollmentCreated,
} from '../../../../contract/schemas/enrollments.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { TypeDeleteDialog } from '../../../components/delete-dialog.tsx';
import { DetailsRow } from '../../../components/details-row.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { formatTimestamp } from '../../../lib/dates.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { Temporal } from '../../../lib/temporal.ts';
import { ENROLLMENT_MANAGE_FLAGS } from '../access.ts';
import { useAskForClientCertificate, useCancelEnrollment, useResendEnrollment } from '../mutations.ts';
import { enrollmentKeys, enrollmentQueryOptions } from '../queries.ts';
import { EnrollmentStatusBadge, SEAT_KIND_LABELS } from './enrollment-labels.tsx';
import { EnrollmentLink } from './enrollment-link.tsx';
import './enrollments.css';
import { PageTitle } from '../../../components/page-title.tsx';

/** A moment as `YYYY-MM-DD HH:mm:ss` in the viewer's time zone. */
function moment(value: string): string {
  return formatTimestamp(Temporal.Instant.from(value), Temporal.Now.timeZoneId());
}

/** What an administrator may do to an enrollment in its status (decision 021). */
export function enrollmentActions(status: Enrollment['status']): {
  resend: boolean;
  withdraw: 'cancel' | 'revoke' | null;
} {
  return {
    resend: status === 'pending' || status === 'expired',
    withdraw:
      status === 'pending' ? 'cancel' : status === 'issued' || status === 'redeemed' ? 'revoke' : null,
  };
}

/**
 * One enrollment: its seat, profile, status and code, what the enrollee's page chose once issued, the
 * certificate it issued; Resend (a new link, shown once) and Cancel or Revoke certificate for whoever
 * manages enrollments.
 */
export function EnrollmentDetailsPage({ id }: { id: string }) {
  const { i18n } = useLingui();
  const query = useSuspenseQuery(enrollmentQueryOptions(id));
  const enrollment = query.data;
  const permissions = usePermissionFlags();
  const manages = ENROLLMENT_MANAGE_FLAGS.every((flag) => permissions[flag]);
  const actions = enrollmentActions(enrollment.status);
  const [dialog, setDialog] = useState<'resend' | 'withdraw' | 'clientAuth' | null>(null);
  const personId = enrollment.seat.kind === 'user' ? enrollment.seat.user_id : null;
  // Q-61 (decision 033): a person's enrollment that is not cancelled or expired may carry a client
  // certificate the person makes through its link; it is asked for once, and a used link's own mail
  // is sent again on asking again.
  const mayAskClientAuth =
    personId !== null &&
    (enrollment.client_auth === null ||
      (enrollment.client_auth.status === 'requested' && linkUsed(enrollment))) &&
    (enrollment.status === 'pending' || linkUsed(enrollment));
  const name = enrollment.seat.name;

  return (
    <section className="page enrollment-details" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          <Trans>Enrollment for {name}</Trans>
        </PageTitle>
        <EnrollmentStatusBadge status={enrollment.status} />
      </div>
      <CachedDataNotice updatedAt={query.dataUpdatedAt} />
      {manages && (actions.resend || actions.withdraw || mayAskClientAuth) ? (
        <p className="enrollments__actions">
          {actions.resend ? (
            <NeedsConnection>
              {(gate) => (
                <Button variant="secondary" {...gate.controlProps} onClick={() => setDialog('resend')}>
                  <Trans>Resend the link</Trans>
                </Button>
              )}
            </NeedsConnection>
          ) : null}
          {mayAskClientAuth ? (
            <NeedsConnection>
              {(gate) => (
                <Button variant="secondary" {...gate.controlProps} onClick={() => setDialog('clientAuth')}>
                  {enrollment.client_auth === null ? (
                    <Trans>Ask for a client certificate</Trans>
                  ) : (
                    <Trans>Send the client certificate link again</Trans>
                  )}
                </Button>
              )}
            </NeedsConnection>
          ) : null}
          {actions.withdraw ? (
            <NeedsConnection>
              {(gate) => (
                <Button
                  className="button--danger"
                  {...gate.controlProps}
                  onClick={() => setDialog('withdraw')}
                >
                  {actions.withdraw === 'cancel' ? (
                    <Trans>Cancel the enrollment</Trans>
                  ) : (
                    <Trans>Revoke certificate</Trans>
                  )}
                </Button>
              )}
            </NeedsConnection>
          ) : null}
        </p>
      ) : null}
      <section aria-labelledby="seat">
        <h2 id="seat">
          <Trans>Person or device</Trans>
        </h2>
        <dl className="details">
          <DetailsRow label={<Trans>Kind</Trans>}>
            {i18n._(SEAT_KIND_LABELS[enrollment.seat.kind])}
          </DetailsRow>
          <DetailsRow label={<Trans>Name</Trans>}>
            {enrollment.seat.kind === 'user' && enrollment.seat.user_id ? (
              <Link to="/access/administrators/$id" params={{ id: enrollment.seat.user_id }}>
                {name}
              </Link>
            ) : (
              name
            )}
          </DetailsRow>
          <DetailsRow label={<Trans>E-mail</Trans>}>{enrollment.seat.email}</DetailsRow>
          <DetailsRow label={<Trans>Account</Trans>}>{enrollment.account_name}</DetailsRow>
        </dl>
      </section>
      <section aria-labelledby="enrollment">
        <h2 id="enrollment">
          <Trans>Enrollment</Trans>
        </h2>
        <dl className="details">
          <DetailsRow label={<Trans>Status</Trans>}>
            <EnrollmentStatusBadge status={enrollment.status} />
          </DetailsRow>
          <DetailsRow label={<Trans>Certificate profile</Trans>}>
            <Link to="/ca/profiles/$id" params={{ id: enrollment.profile_id }}>
              {enrollment.profile_name}
            </Link>
          </DetailsRow>
          <DetailsRow label={<Trans>Created</Trans>}>{moment(enrollment.created_at)}</DetailsRow>
          <DetailsRow label={<Trans>Link expires</Trans>}>{moment(enrollment.code_expires_at)}</DetailsRow>
          {/* Someone guessing shows here; wrong codes never stop the link (decision 031). */}
          <DetailsRow label={<Trans>Wrong codes</Trans>}>{enrollment.failed_attempts}</DetailsRow>
          {enrollment.issued_at !== null ? (
            <DetailsRow label={<Trans>Issued</Trans>}>{moment(enrollment.issued_at)}</DetailsRow>
          ) : null}
          {enrollment.redeemed_at !== null ? (
            <DetailsRow label={<Trans>Redeemed</Trans>}>{moment(enrollment.redeemed_at)}</DetailsRow>
          ) : null}
          {enrollment.enrollment_method !== null ? (
            <DetailsRow label={<Trans>Enrollment method</Trans>}>{enrollment.enrollment_method}</DetailsRow>
          ) : null}
          {enrollment.keystore_type !== null ? (
            <DetailsRow label={<Trans>Keystore type</Trans>}>{enrollment.keystore_type}</DetailsRow>
          ) : null}
          {enrollment.client_auth !== null && personId !== null ? (
            <DetailsRow label={<Trans>Client certificate of {name}</Trans>}>
              {enrollment.client_auth.status === 'requested' ? (
                <Trans>Asked for: {name} makes it through their enrollment link.</Trans>
              ) : (
                <Link to="/access/administrators/$id/client-auth" params={{ id: personId }}>
                  <Trans>Made by {name}: open their client certificates</Trans>
                </Link>
              )}
            </DetailsRow>
          ) : null}
          {enrollment.certificate_id !== null ? (
            <DetailsRow label={<Trans>Certificate</Trans>}>
              <Link to="/ca/certificates/$id" params={{ id: enrollment.certificate_id }}>
                <Trans>Open the issued certificate</Trans>
              </Link>
            </DetailsRow>
          ) : null}
        </dl>
      </section>
      {dialog === 'clientAuth' ? (
        <AskClientCertificateDialog enrollment={enrollment} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'resend' ? <ResendDialog enrollment={enrollment} onClose={() => setDialog(null)} /> : null}
      {dialog === 'withdraw' && actions.withdraw ? (
        <WithdrawDialog enrollment={enrollment} kind={actions.withdraw} onClose={() => setDialog(null)} />
      ) : null}
    </section>
  );
}

/**
 * Whether the enrollment's link was used for its certificate: it then no longer opens the enrollment
 * page, and asking for a client certificate mails the enrollee a new link of its own (decision 033).
 */
function linkUsed(enrollment: Enrollment): boolean {
  return enrollment.status === 'issued' || enrollment.status === 'redeemed';
}

/**
 * Q-61 (decision 033): the certificate is the enrollee's, so the administrator asks for it and the
 * person makes it through their enrollment link, where its key is made and stays. Success is the
 * spec's generateSuccess notice.
 */
function AskClientCertificateDialog({
  enrollment,
  onClose,
}: {
  enrollment: Enrollment;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const ask = useAskForClientCertificate(enrollment.id);
  const name = enrollment.seat.name;
  const used = linkUsed(enrollment);
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={<Trans>Ask {name} for a client certificate?</Trans>}
      description={
        <>
          <Trans>
            The certificate signs {name} in and is issued in {name}'s user name. {name} makes it through their
            enrollment link, in the browser where they open it: its key is made there and never reaches you.
          </Trans>
          {used ? (
            <>
              {' '}
              <Trans>
                The enrollment link was used already, so {name} gets a new link by e-mail for the client
                certificate; the link sent before stops working.
              </Trans>
            </>
          ) : null}
        </>
      }
    >
      <div className="dialog__form">
        {ask.error ? <FormErrorAlert error={ask.error} /> : null}
        <div className="dialog__actions">
          <Button variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            busy={ask.isPending}
            onClick={() =>
              ask.mutate(undefined, {
                onSuccess: () => {
                  notify(
                    'success',
                    used
                      ? t`${name} gets an e-mail with a new link to make their client certificate.`
                      : t`${name} can now make their client certificate through the enrollment link.`,
                  );
                  onClose();
                },
              })
            }
          >
            <Trans>Ask for the certificate</Trans>
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/** Resend: confirms, then shows the new link once; the old link stops working. */
function ResendDialog({ enrollment, onClose }: { enrollment: Enrollment; onClose: () => void }) {
  const resend = useResendEnrollment(enrollment.id);
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<EnrollmentCreated | null>(null);
  const email = enrollment.seat.email;
  const days = ENROLLMENT_CODE_TTL_DAYS;
  const reload = () => {
    resend.reset();
    void queryClient.invalidateQueries({ queryKey: enrollmentKeys.detail(enrollment.id) });
    onClose();
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={created ? <Trans>New enrollment link</Trans> : <Trans>Resend the enrollment link?</Trans>}
      description={
        created ? undefined : (
          <Trans>
            A new link goes to {email}. The link sent before stops working, and the new one works for {days}{' '}
            days.
          </Trans>
        )
      }
    >
      {created ? (
        <EnrollmentLink created={created} doneLabel={<Trans>Done</Trans>} onDone={onClose} />
      ) : (
        <div className="dialog__form">
          {resend.error ? <FormErrorAlert error={resend.error} onReload={reload} /> : null}
          <div className="dialog__actions">
            <Button variant="secondary" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button
              busy={resend.isPending}
              onClick={() => resend.mutate(enrollment.version, { onSuccess: (answer) => setCreated(answer) })}
            >
              <Trans>Resend</Trans>
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

/**
 * Cancel a pending enrollment, or revoke the certificate an issued one made: both are a DELETE of the
 * enrollment, and neither can be undone, so the user types DELETE.
 */
function WithdrawDialog({
  enrollment,
  kind,
  onClose,
}: {
  enrollment: Enrollment;
  kind: 'cancel' | 'revoke';
  onClose: () => void;
}) {
  const { t } = useLingui();
  const cancel = useCancelEnrollment(enrollment.id);
  const name = enrollment.seat.name;
  const close = () => {
    cancel.reset();
    onClose();
  };
  return (
    <TypeDeleteDialog
      open
      onOpenChange={(open) => (open ? undefined : close())}
      title={
        kind === 'cancel' ? (
          <Trans>Cancel the enrollment for {name}?</Trans>
        ) : (
          <Trans>Revoke the certificate of {name}?</Trans>
        )
      }
      warning={
        kind === 'cancel' ? (
          <Trans>The enrollment link stops working. This cannot be undone.</Trans>
        ) : (
          <Trans>
            The enrollment is cancelled and the certificate it issued is revoked: it is refused wherever the
            revocation list is checked. This cannot be undone.
          </Trans>
        )
      }
      confirmLabel={
        kind === 'cancel' ? <Trans>Cancel the enrollment</Trans> : <Trans>Revoke certificate</Trans>
      }
      pending={cancel.isPending}
      error={cancel.error ? <FormErrorAlert error={cancel.error} /> : null}
      onConfirm={() =>
        cancel.mutate(enrollment.version, {
          onSuccess: () => {
            notify('success', kind === 'cancel' ? t`Enrollment cancelled.` : t`Certificate revoked.`);
            close();
          },
        })
      }
    />
  );
}
