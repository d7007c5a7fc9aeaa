import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import {
  type EnrollmentCreated,
  enrollmentCreateSchema,
  SEAT_KINDS,
  type SeatKind,
} from '../../../../contract/schemas/enrollments.ts';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { accountChoicesQueryOptions } from '../../../lib/account-choices.ts';
import { useActiveAccountId, useProfile } from '../../../lib/current-user.ts';
import { type FieldCodes, type FormValues, useForm } from '../../../lib/form/use-form.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { useCreateEnrollment } from '../mutations.ts';
import { accountProfilesQueryOptions, enrollablePeopleQueryOptions } from '../queries.ts';
import { SEAT_KIND_LABELS } from './enrollment-labels.tsx';
import { EnrollmentLink } from './enrollment-link.tsx';
import './enrollments.css';
import { PageTitle } from '../../../components/page-title.tsx';

/** What the address may fill in: the account, and the person to enroll (from their details page). */
export interface EnrollmentCreatePrefill {
  account?: string | undefined;
  user?: string | undefined;
}

/** The choices the contract takes as any id: an empty one means nothing was chosen. */
function requiredChoices(values: FormValues): FieldCodes {
  return {
    ...(values.profile_id ? {} : { profile_id: 'required' }),
    ...(values['seat.kind'] === 'user' && !values['seat.user_id'] ? { 'seat.user_id': 'required' } : {}),
  };
}

/**
 * New enrollment (`/ca/enrollments/create`): a person of the account or a device, under one of the
 * account's profiles. Once made, the link is shown this once; the page then leads to the enrollment.
 */
export function EnrollmentCreatePage({ prefill }: { prefill: EnrollmentCreatePrefill }) {
  const [created, setCreated] = useState<EnrollmentCreated | null>(null);
  const navigate = useNavigate();
  if (created) {
    const id = created.enrollment.id;
    const name = created.enrollment.seat.name;
    return (
      <section className="page" aria-labelledby="page-title">
        <PageTitle>
          <Trans>Enrollment for {name} created</Trans>
        </PageTitle>
        <EnrollmentLink
          created={created}
          doneLabel={<Trans>Go to the enrollment</Trans>}
          onDone={() => void navigate({ to: '/ca/enrollments/$id', params: { id } })}
        />
      </section>
    );
  }
  return <CreateForm prefill={prefill} onCreated={setCreated} />;
}

function CreateForm({
  prefill,
  onCreated,
}: {
  prefill: EnrollmentCreatePrefill;
  onCreated: (created: EnrollmentCreated) => void;
}) {
  const { t, i18n } = useLingui();
  const viewer = useProfile();
  const activeAccountId = useActiveAccountId();
  const otherAccounts = viewer.access_scope !== 'account';
  const [accountId, setAccountId] = useState(
    otherAccounts ? (prefill.account ?? activeAccountId) : activeAccountId,
  );
  const [kind, setKind] = useState<SeatKind>('user');
  const accounts = useQuery({ ...accountChoicesQueryOptions(), enabled: otherAccounts });
  const create = useCreateEnrollment();
  const form = useForm(enrollmentCreateSchema, {
    request: (values) => ({
      account_id: otherAccounts ? values.account_id : activeAccountId,
      profile_id: values.profile_id ?? '',
      seat:
        values['seat.kind'] === 'device'
          ? { kind: 'device', name: values['seat.name'] ?? '', email: values['seat.email'] ?? '' }
          : { kind: values['seat.kind'], user_id: values['seat.user_id'] ?? '' },
    }),
    refine: requiredChoices,
    onSubmit: async (request) => onCreated(await create.mutateAsync(request)),
  });

  const accountOptions =
    accounts.data?.items.map((account) => ({ value: account.id, label: account.name })) ?? [];
  if (!accountOptions.some((option) => option.value === accountId)) {
    const own = viewer.accounts.find((account) => account.id === accountId);
    accountOptions.unshift({ value: accountId, label: own?.display_name ?? t`Chosen account` });
  }

  return (
    <section className="page" aria-labelledby="page-title">
      <PageTitle>
        <Trans>New enrollment</Trans>
      </PageTitle>
      <p>
        <Trans>
          The person, or the device's technician, receives a link by e-mail and opens it on the computer that
          should hold the certificate.
        </Trans>
      </p>
      <Form form={form} className="enrollment-form">
        {otherAccounts ? (
          <SelectField
            label={t`Account`}
            {...form.field('account_id')}
            value={accountId}
            options={accountOptions}
            onChange={(event) => setAccountId(event.target.value)}
            required
          />
        ) : null}
        <SelectField
          label={t`Enroll`}
          {...form.field('seat.kind')}
          value={kind}
          options={SEAT_KINDS.map((value) => ({ value, label: i18n._(SEAT_KIND_LABELS[value]) }))}
          onChange={(event) => setKind(event.target.value === 'device' ? 'device' : 'user')}
          required
        />
        {kind === 'user' ? (
          // Keyed by the account so a change of account makes a new select; the keys of siblings
          // differ, or React keeps the old account's select beside the new one.
          <PersonField
            key={`person:${accountId}`}
            accountId={accountId}
            userId={prefill.user}
            field={form.field('seat.user_id')}
          />
        ) : (
          <fieldset>
            <legend>
              <Trans>Device</Trans>
            </legend>
            <TextField label={t`Device name`} {...form.field('seat.name')} maxLength={128} required />
            <TextField
              label={t`Technician's e-mail`}
              description={t`The enrollment link goes to this address.`}
              type="email"
              autoComplete="off"
              {...form.field('seat.email')}
              required
            />
          </fieldset>
        )}
        <ProfileField key={`profile:${accountId}`} accountId={accountId} field={form.field('profile_id')} />
        <div className="enrollments__actions">
          <Button {...form.submitProps}>
            <Trans>Enroll and send the link</Trans>
          </Button>
          <Link to="/ca/enrollments" className="button button--secondary">
            <Trans>Cancel</Trans>
          </Link>
        </div>
      </Form>
    </section>
  );
}

type FieldProps = { name: string; error: string | undefined };

/** The account's people; the select appears once they are loaded, so a pre-filled person is chosen. */
function PersonField({
  accountId,
  userId,
  field,
}: {
  accountId: string;
  userId?: string | undefined;
  field: FieldProps;
}) {
  const { t } = useLingui();
  const people = useQuery(enrollablePeopleQueryOptions(accountId));
  if (people.isError) {
    return (
      <p role="alert">
        <Trans>The people of this account could not be loaded.</Trans>
      </p>
    );
  }
  if (!people.data) {
    return (
      <p role="status">
        <Trans>Loading the people of this account…</Trans>
      </p>
    );
  }
  const known = people.data.items.some((person) => person.id === userId);
  return (
    <SelectField
      label={t`Person`}
      {...field}
      defaultValue={known ? userId : ''}
      options={[
        { value: '', label: t`Choose a person` },
        ...people.data.items.map((person) => ({
          value: person.id,
          label: `${person.first_name} ${person.last_name} (${person.email})`,
        })),
      ]}
      description={people.data.total === 0 ? t`This account has no people yet.` : undefined}
      required
    />
  );
}

/** The account's certificate profiles, under one of which the certificate is issued. */
function ProfileField({ accountId, field }: { accountId: string; field: FieldProps }) {
  const { t } = useLingui();
  const profiles = useQuery(accountProfilesQueryOptions(accountId));
  // The next step is offered to whoever may take it; the create page's own gate says the same.
  const canCreateProfile = usePermissionFlags().canManageProfile;
  if (profiles.isError) {
    return (
      <p role="alert">
        <Trans>The certificate profiles of this account could not be loaded.</Trans>
      </p>
    );
  }
  if (!profiles.data) {
    return (
      <p role="status">
        <Trans>Loading the certificate profiles of this account…</Trans>
      </p>
    );
  }
  const only = profiles.data.items.length === 1 ? profiles.data.items[0]?.id : undefined;
  const noProfiles = profiles.data.total === 0;
  return (
    <>
      <SelectField
        label={t`Certificate profile`}
        {...field}
        defaultValue={only ?? ''}
        options={[
          { value: '', label: t`Choose a profile` },
          ...profiles.data.items.map((profile) => ({ value: profile.id, label: profile.name })),
        ]}
        description={noProfiles ? t`This account has no certificate profiles: create one first.` : undefined}
        required
      />
      {noProfiles && canCreateProfile ? (
        <Link to="/ca/profiles/create">
          <Trans>Create a certificate profile</Trans>
        </Link>
      ) : null}
    </>
  );
}
