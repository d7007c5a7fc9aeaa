import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import * as v from 'valibot';
import type { AuditResourceType } from '../../../../contract/audit.ts';
import {
  type AuditBreakReason,
  type AuditEvent,
  type AuditVerification,
  auditUpdateDetailsSchema,
} from '../../../../contract/schemas/audit-log.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { DetailsRow } from '../../../components/details-row.tsx';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { auditEventQueryOptions, auditVerificationQueryOptions } from '../queries.ts';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_RESOURCE_TYPE_LABELS,
  AuditStatusBadge,
  auditTime,
} from './audit-log-labels.tsx';
import './audit-log.css';
import { PageTitle } from '../../../components/page-title.tsx';

/**
 * Reporting › Logging › one event: who did what to which object, when, from where and with what
 * result; the fields an UPDATE changed, before and after; and Verify, which asks the server whether
 * the event and the chain up to it are intact.
 */
export function AuditEventPage({ id }: { id: string }) {
  const { t, i18n } = useLingui();
  const query = useSuspenseQuery(auditEventQueryOptions(id));
  const event = query.data;
  const when = auditTime(event.occurred_at);
  const action = i18n._(AUDIT_ACTION_LABELS[event.action]);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          <Trans>
            {action} at {when}
          </Trans>
        </PageTitle>
        <AuditStatusBadge status={event.status} />
      </div>
      <CachedDataNotice updatedAt={query.dataUpdatedAt} />
      <section aria-labelledby="event">
        <h2 id="event">
          <Trans>Event</Trans>
        </h2>
        <dl className="details">
          <DetailsRow label={<Trans>When</Trans>}>
            <time dateTime={event.occurred_at}>{when}</time>
          </DetailsRow>
          <DetailsRow label={<Trans>Who</Trans>}>
            <Actor event={event} />
          </DetailsRow>
          <DetailsRow label={<Trans>Action</Trans>}>
            {action} <code>{event.action}</code>
          </DetailsRow>
          <DetailsRow label={<Trans>Result</Trans>}>
            <AuditStatusBadge status={event.status} />
          </DetailsRow>
          <DetailsRow label={<Trans>Resource</Trans>}>
            <Resource event={event} />
          </DetailsRow>
          <DetailsRow label={<Trans>Account</Trans>}>
            {event.account_id ? (
              <Link to="/accounts/$id" params={{ id: event.account_id }}>
                {event.account_name ?? event.account_id}
              </Link>
            ) : (
              t`None`
            )}
          </DetailsRow>
          <DetailsRow label={<Trans>Client address</Trans>}>{event.ip_address ?? t`Unknown`}</DetailsRow>
          <DetailsRow label={<Trans>Client</Trans>}>{event.user_agent ?? t`Unknown`}</DetailsRow>
          <DetailsRow label={<Trans>Place in the chain</Trans>}>{event.seq}</DetailsRow>
        </dl>
      </section>
      <EventDetails event={event} />
      <Verification id={event.id} />
    </section>
  );
}

function Actor({ event }: { event: AuditEvent }) {
  const { t } = useLingui();
  if (event.actor_id === null) return <>{event.actor_name ?? t`Nobody signed in`}</>;
  return (
    <>
      <Link to="/access/administrators/$id" params={{ id: event.actor_id }}>
        {event.actor_name ?? event.actor_id}
      </Link>{' '}
      (
      <Link to="/reporting/logging" search={{ user: event.actor_id }}>
        <Trans>their events</Trans>
      </Link>
      )
    </>
  );
}

/** The console's page of an object an event names, where there is one. */
function resourceLink(type: AuditResourceType, id: string, label: ReactNode): ReactNode {
  switch (type) {
    case 'ACCOUNT':
      return (
        <Link to="/accounts/$id" params={{ id }}>
          {label}
        </Link>
      );
    case 'USER':
      return (
        <Link to="/access/administrators/$id" params={{ id }}>
          {label}
        </Link>
      );
    case 'ORGANIZATION':
      return (
        <Link to="/ca/organizations/$id" params={{ id }}>
          {label}
        </Link>
      );
    case 'ROLE':
      return (
        <Link to="/access/manage-user-roles/role-detail/$id" params={{ id }}>
          {label}
        </Link>
      );
    case 'CERTIFICATE':
      return (
        <Link to="/ca/certificates/$id" params={{ id }}>
          {label}
        </Link>
      );
    case 'CERTIFICATE_PROFILE':
      return (
        <Link to="/ca/profiles/$id" params={{ id }}>
          {label}
        </Link>
      );
    case 'ENROLLMENT':
      return (
        <Link to="/ca/enrollments/$id" params={{ id }}>
          {label}
        </Link>
      );
    default:
      return label;
  }
}

function Resource({ event }: { event: AuditEvent }) {
  const { i18n } = useLingui();
  const type = (
    <>
      {i18n._(AUDIT_RESOURCE_TYPE_LABELS[event.resource_type])} <code>{event.resource_type}</code>
    </>
  );
  if (event.resource_id === null) return type;
  const label = event.resource_id;
  // A deleted object has no page left to open.
  return (
    <>
      {type} {event.action === 'DELETE' ? label : resourceLink(event.resource_type, event.resource_id, label)}
    </>
  );
}

/** A recorded value as the trail keeps it: text as it is, anything else as JSON. */
function AuditValue({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') {
    return (
      <span className="audit-changes__withheld">
        <Trans>empty</Trans>
      </span>
    );
  }
  return (
    <pre className="audit-changes__value">
      {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** An UPDATE's changed fields before and after; another event's details as they were recorded. */
function EventDetails({ event }: { event: AuditEvent }) {
  const { t } = useLingui();
  const update = v.safeParse(auditUpdateDetailsSchema, event.details);
  if (update.success) {
    const changes = Object.entries(update.output.changes);
    const tokenId = update.output.api_key_id;
    return (
      <section aria-labelledby="changes">
        <h2 id="changes">
          <Trans>Changes</Trans>
        </h2>
        <table className="audit-changes">
          <caption className="visually-hidden">
            <Trans>Changed fields, before and after</Trans>
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans>Field</Trans>
              </th>
              <th scope="col">
                <Trans>Before</Trans>
              </th>
              <th scope="col">
                <Trans>After</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {changes.map(([field, change]) => (
              <tr key={field}>
                <th scope="row">{field}</th>
                {'withheld' in change ? (
                  <td colSpan={2} className="audit-changes__withheld">
                    <Trans>Changed; the values are not kept in the log.</Trans>
                  </td>
                ) : (
                  <>
                    <td>
                      <AuditValue value={change.from} />
                    </td>
                    <td>
                      <AuditValue value={change.to} />
                    </td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        {tokenId ? (
          <p>
            <Trans>Made with the API token {tokenId}.</Trans>
          </p>
        ) : null}
      </section>
    );
  }
  const entries = Object.entries(event.details);
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="details">
      <h2 id="details">
        <Trans>Details</Trans>
      </h2>
      <dl className="details" aria-label={t`Recorded details`}>
        {entries.map(([key, value]) => (
          <DetailsRow key={key} label={key}>
            <AuditValue value={value} />
          </DetailsRow>
        ))}
      </dl>
    </section>
  );
}

/** Verify and its answer: intact, or where the chain breaks, with the checkpoint it was checked against. */
function Verification({ id }: { id: string }) {
  const verification = useQuery(auditVerificationQueryOptions(id));
  return (
    <section aria-labelledby="verify">
      <h2 id="verify">
        <Trans>Verification</Trans>
      </h2>
      <p>
        <Trans>
          Checks that this event and every event before it are unchanged and complete, against the last
          checkpoint the platform signed.
        </Trans>
      </p>
      <div className="audit-verify">
        <NeedsConnection>
          {(gate) => (
            <Button
              variant="secondary"
              busy={verification.isFetching}
              onClick={() => void verification.refetch()}
              {...gate.controlProps}
            >
              {verification.isFetching ? <Trans>Verifying…</Trans> : <Trans>Verify</Trans>}
            </Button>
          )}
        </NeedsConnection>
        {verification.isError && !verification.isFetching ? (
          <ServerErrorAlert error={verification.error} />
        ) : null}
        {verification.data && !verification.isFetching ? (
          <VerificationResult result={verification.data} />
        ) : null}
      </div>
    </section>
  );
}

function VerificationResult({ result }: { result: AuditVerification }) {
  const checked = result.checked_events;
  return (
    <>
      {result.intact ? (
        <Alert tone="success">
          <Trans>Intact: this event and the {checked} events of the chain up to it are unchanged.</Trans>
        </Alert>
      ) : (
        <Alert tone="error">
          <BrokenChain result={result} />
        </Alert>
      )}
      <Checkpoint result={result} />
    </>
  );
}

function BrokenChain({ result }: { result: AuditVerification }) {
  const broken = result.broken_at;
  if (!broken) {
    return (
      <Trans>
        Not intact: the checkpoint's signature does not hold, or the chain does not reach its head.
      </Trans>
    );
  }
  const seq = broken.seq;
  const reason = <BreakReason reason={broken.reason} />;
  return (
    <>
      <Trans>Not intact: the chain breaks at event {seq}.</Trans> {reason}{' '}
      {broken.id ? (
        <Link to="/reporting/logging/$id" params={{ id: broken.id }}>
          <Trans>Open that event</Trans>
        </Link>
      ) : null}
    </>
  );
}

function BreakReason({ reason }: { reason: AuditBreakReason }) {
  switch (reason) {
    case 'altered':
      return <Trans>Its content was changed after it was recorded.</Trans>;
    case 'unlinked':
      return <Trans>An event before it was removed or moved.</Trans>;
    default:
      return (
        <Trans>
          The event the checkpoint signed is missing or differs: the log was cut short or rewritten.
        </Trans>
      );
  }
}

function Checkpoint({ result }: { result: AuditVerification }) {
  const checkpoint = result.checkpoint;
  if (!checkpoint || result.checkpoint_ok === null) {
    return (
      <p>
        <Trans>
          The platform has not signed a checkpoint yet; the chain was checked from its first event.
        </Trans>
      </p>
    );
  }
  const seq = checkpoint.seq;
  const signedAt = auditTime(checkpoint.signed_at);
  const keyId = checkpoint.key_id;
  return (
    <p>
      {result.checkpoint_ok ? (
        <Trans>
          Checked against the checkpoint signed at {signedAt} over event {seq} (key {keyId}); its signature
          holds.
        </Trans>
      ) : (
        <Trans>
          Checked against the checkpoint signed at {signedAt} over event {seq} (key {keyId}); it does not
          match this chain.
        </Trans>
      )}
    </p>
  );
}
