import { Trans, useLingui } from '@lingui/react/macro';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { SUBJECT_FIELDS } from '../../../../contract/certificate-policy.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { userDate } from '../../../lib/dates.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { PROFILE_MANAGE_FLAGS } from '../access.ts';
import { profileQueryOptions } from '../queries.ts';
import { ProfileDeleteDialog } from './profile-delete-dialog.tsx';
import {
  EXTENDED_KEY_USAGE_LABELS,
  KEY_USAGE_LABELS,
  keyTypesText,
  SUBJECT_FIELD_LABELS,
  SUBJECT_RULE_LABELS,
} from './profile-labels.ts';
import './certificate-profiles.css';
import { DetailsRow } from '../../../components/details-row.tsx';
import { PageTitle } from '../../../components/page-title.tsx';

/** One certificate profile (`/ca/profiles/{id}`): its policy; Edit and Delete for whoever manages profiles. */
export function ProfileDetailsPage({ id }: { id: string }) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const query = useSuspenseQuery(profileQueryOptions(id));
  const profile = query.data;
  const { policy } = profile;
  const viewer = useProfile();
  const permissions = usePermissionFlags();
  const manages = PROFILE_MANAGE_FLAGS.every((flag) => permissions[flag]);
  const [deleting, setDeleting] = useState(false);
  const days = policy.validity_days;
  return (
    <section className="page profile-details" aria-labelledby="page-title">
      <PageTitle>{profile.name}</PageTitle>
      <CachedDataNotice updatedAt={query.dataUpdatedAt} />
      {manages ? (
        <p className="profiles__actions">
          <Link className="button button--secondary" to="/ca/profiles/$id/edit" params={{ id }}>
            <Trans>Edit</Trans>
          </Link>
          <NeedsConnection>
            {(gate) => (
              <Button className="button--danger" {...gate.controlProps} onClick={() => setDeleting(true)}>
                <Trans>Delete</Trans>
              </Button>
            )}
          </NeedsConnection>
        </p>
      ) : null}
      <section aria-labelledby="profile-details">
        <h2 id="profile-details">
          <Trans>Details</Trans>
        </h2>
        <dl className="details">
          <DetailsRow label={<Trans>Account</Trans>}>{profile.account_name}</DetailsRow>
          <DetailsRow label={<Trans>Description</Trans>}>
            {profile.description || <Trans>Not given</Trans>}
          </DetailsRow>
          <DetailsRow label={<Trans>Validity</Trans>}>
            <Trans>{days} days</Trans>
          </DetailsRow>
          <DetailsRow label={<Trans>Key usages</Trans>}>
            {policy.key_usages.map((usage) => i18n._(KEY_USAGE_LABELS[usage])).join(', ')}
          </DetailsRow>
          <DetailsRow label={<Trans>Extended key usages</Trans>}>
            {policy.extended_key_usages.length === 0 ? (
              <Trans>None</Trans>
            ) : (
              policy.extended_key_usages.map((usage) => i18n._(EXTENDED_KEY_USAGE_LABELS[usage])).join(', ')
            )}
          </DetailsRow>
          <DetailsRow label={<Trans>Key types</Trans>}>{keyTypesText(policy)}</DetailsRow>
          <DetailsRow label={<Trans>Updated</Trans>}>
            {userDate(profile.updated_at, viewer.date_format, i18n.locale)}
          </DetailsRow>
        </dl>
      </section>
      <section aria-labelledby="profile-subject">
        <h2 id="profile-subject">
          <Trans>Subject fields</Trans>
        </h2>
        <dl className="details">
          {SUBJECT_FIELDS.map((field) => (
            <DetailsRow key={field} label={i18n._(SUBJECT_FIELD_LABELS[field])}>
              {i18n._(SUBJECT_RULE_LABELS[policy.subject[field]])}
            </DetailsRow>
          ))}
        </dl>
      </section>
      <ProfileDeleteDialog
        profile={deleting ? profile : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate({ to: '/ca/profiles' })}
      />
    </section>
  );
}
