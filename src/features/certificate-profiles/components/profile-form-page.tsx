import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useId, useState } from 'react';
import {
  CLIENT_AUTH_POLICY,
  EC_CURVES,
  EXTENDED_KEY_USAGES,
  KEY_USAGES,
  PROFILE_VALIDITY_DAYS,
  type ProfilePolicy,
  RSA_KEY_SIZES,
  SUBJECT_FIELD_RULES,
  SUBJECT_FIELDS,
} from '../../../../contract/certificate-policy.ts';
import {
  type CertificateProfile,
  certificateProfileCreateSchema,
  certificateProfileUpdateSchema,
  PROFILE_DESCRIPTION_MAX_LENGTH,
  PROFILE_NAME_MAX_LENGTH,
} from '../../../../contract/schemas/certificate-profiles.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { notify } from '../../../components/notify.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { accountChoicesQueryOptions } from '../../../lib/account-choices.ts';
import { useActiveAccountId, useProfile } from '../../../lib/current-user.ts';
import { type FormState, type FormValues, useForm } from '../../../lib/form/use-form.ts';
import { useCreateProfile, useUpdateProfile } from '../mutations.ts';
import { profileKeys, profileQueryOptions } from '../queries.ts';
import {
  EXTENDED_KEY_USAGE_LABELS,
  KEY_USAGE_LABELS,
  SUBJECT_FIELD_LABELS,
  SUBJECT_RULE_LABELS,
} from './profile-labels.ts';
import './certificate-profiles.css';
import { PageTitle } from '../../../components/page-title.tsx';

const IN_USE_MESSAGES = { name: msg`Another profile of this account has this name.` };

/** A choice of a list (`policy.key_usages:Authentication`): one input each, the list built on submit. */
const CHOICE = ':';

function chosen(values: FormValues, list: string): string[] {
  const prefix = `${list}${CHOICE}`;
  return Object.keys(values)
    .filter((name) => name.startsWith(prefix))
    .map((name) => name.slice(prefix.length));
}

/**
 * The request the inputs make: the policy's lists from one checkbox per choice, the validity as a
 * number when it is one (else as typed, which the contract refuses as not a whole number).
 */
export function profileRequestOf(values: FormValues): Record<string, unknown> {
  const validity = (values['policy.validity_days'] ?? '').trim();
  return {
    ...(values.account_id === undefined ? {} : { account_id: values.account_id }),
    name: values.name ?? '',
    description: values.description ?? '',
    policy: {
      subject: Object.fromEntries(
        SUBJECT_FIELDS.map((field) => [field, values[`policy.subject.${field}`] ?? '']),
      ),
      validity_days: /^\d{1,7}$/.test(validity) ? Number(validity) : validity,
      key_usages: chosen(values, 'policy.key_usages'),
      extended_key_usages: chosen(values, 'policy.extended_key_usages'),
      key_types: {
        rsa: chosen(values, 'policy.key_types.rsa').map(Number),
        ec: chosen(values, 'policy.key_types.ec'),
      },
    },
  };
}

/** Create certificate profile (`/ca/profiles/create`): in the viewer's account, or one they choose. */
export function ProfileCreatePage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const viewer = useProfile();
  const activeAccountId = useActiveAccountId();
  const otherAccounts = viewer.access_scope !== 'account';
  const accounts = useQuery({ ...accountChoicesQueryOptions(), enabled: otherAccounts });
  const create = useCreateProfile();
  const form = useForm(certificateProfileCreateSchema, {
    request: (values) => ({ account_id: activeAccountId, ...profileRequestOf(values) }),
    inUseMessages: IN_USE_MESSAGES,
    onSubmit: async (request) => {
      const created = await create.mutateAsync(request);
      notify('success', t`Certificate profile created.`);
      void navigate({ to: '/ca/profiles/$id', params: { id: created.id } });
    },
  });
  const accountOptions =
    accounts.data?.items.map((account) => ({ value: account.id, label: account.name })) ?? [];
  if (!accountOptions.some((option) => option.value === activeAccountId)) {
    const own = viewer.accounts.find((account) => account.id === activeAccountId);
    accountOptions.unshift({ value: activeAccountId, label: own?.display_name ?? t`Current account` });
  }
  return (
    <section className="page" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Create certificate profile</Trans>
      </PageTitle>
      <Form form={form} className="profile-form">
        {otherAccounts ? (
          <SelectField
            label={t`Account`}
            description={t`The account whose certificates this profile issues. It cannot be changed later.`}
            {...form.field('account_id')}
            defaultValue={activeAccountId}
            options={accountOptions}
            required
          />
        ) : null}
        <ProfileFields form={form} policy={CLIENT_AUTH_POLICY} />
        <div className="profile-form__actions">
          <Button {...form.submitProps}>
            <Trans>Create</Trans>
          </Button>
          <Link to="/ca/profiles" className="button button--secondary">
            <Trans>Cancel</Trans>
          </Link>
        </div>
      </Form>
    </section>
  );
}

/** Edit certificate profile (`/ca/profiles/{id}/edit`) on the version the form was filled from. */
export function ProfileEditPage({ id }: { id: string }) {
  const { data, dataUpdatedAt } = useSuspenseQuery(profileQueryOptions(id));
  return (
    <>
      <CachedDataNotice updatedAt={dataUpdatedAt} />
      {/* A new version (reloaded after a conflict) starts the form again from it. */}
      <EditForm key={data.version} loaded={data} />
    </>
  );
}

function EditForm({ loaded }: { loaded: CertificateProfile }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [profile] = useState(loaded);
  const update = useUpdateProfile(profile.id);
  const name = profile.name;
  const form = useForm(certificateProfileUpdateSchema, {
    request: profileRequestOf,
    inUseMessages: IN_USE_MESSAGES,
    onSubmit: async (request) => {
      await update.mutateAsync({ update: request, version: profile.version });
      notify('success', t`Certificate profile updated.`);
      void navigate({ to: '/ca/profiles/$id', params: { id: profile.id } });
    },
  });
  return (
    <section className="page" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Edit certificate profile: {name}</Trans>
      </PageTitle>
      <Form
        form={form}
        className="profile-form"
        onReload={() =>
          void queryClient.invalidateQueries({ queryKey: profileKeys.detail(profile.id), exact: true })
        }
      >
        <p>
          <Trans>Account: {profile.account_name}</Trans>
        </p>
        <ProfileFields
          form={form}
          policy={profile.policy}
          name={profile.name}
          description={profile.description}
        />
        <div className="profile-form__actions">
          <Button {...form.submitProps}>
            <Trans>Save</Trans>
          </Button>
          <Link to="/ca/profiles/$id" params={{ id: profile.id }} className="button button--secondary">
            <Trans>Cancel</Trans>
          </Link>
        </div>
      </Form>
    </section>
  );
}

/** The fields both forms share: name, description and the whole policy. */
function ProfileFields({
  form,
  policy,
  name = '',
  description = '',
}: {
  form: FormState;
  policy: ProfilePolicy;
  name?: string;
  description?: string;
}) {
  const { t, i18n } = useLingui();
  const minDays = PROFILE_VALIDITY_DAYS.min;
  const maxDays = PROFILE_VALIDITY_DAYS.max;
  return (
    <>
      <TextField
        label={t`Name`}
        {...form.field('name')}
        defaultValue={name}
        required
        autoComplete="off"
        maxLength={PROFILE_NAME_MAX_LENGTH}
      />
      <TextAreaField
        label={t`Description`}
        {...form.field('description')}
        defaultValue={description}
        rows={3}
        maxLength={PROFILE_DESCRIPTION_MAX_LENGTH}
      />
      <TextField
        label={t`Validity (days)`}
        description={t`From ${minDays} to ${maxDays} days.`}
        type="number"
        inputMode="numeric"
        min={minDays}
        max={maxDays}
        {...form.field('policy.validity_days')}
        defaultValue={String(policy.validity_days)}
        required
      />
      <ChoiceGroup legend={t`Key usages`} name="policy.key_usages" error={form.errorOf('policy.key_usages')}>
        {KEY_USAGES.map((usage) => (
          <li key={usage}>
            <Checkbox
              name={`policy.key_usages${CHOICE}${usage}`}
              value="on"
              defaultChecked={policy.key_usages.includes(usage)}
            >
              {i18n._(KEY_USAGE_LABELS[usage])}
            </Checkbox>
          </li>
        ))}
      </ChoiceGroup>
      <ChoiceGroup
        legend={t`Extended key usages`}
        name="policy.extended_key_usages"
        error={form.errorOf('policy.extended_key_usages')}
      >
        {EXTENDED_KEY_USAGES.map((usage) => (
          <li key={usage}>
            <Checkbox
              name={`policy.extended_key_usages${CHOICE}${usage}`}
              value="on"
              defaultChecked={policy.extended_key_usages.includes(usage)}
            >
              {i18n._(EXTENDED_KEY_USAGE_LABELS[usage])}
            </Checkbox>
          </li>
        ))}
      </ChoiceGroup>
      <ChoiceGroup
        legend={t`Key types`}
        hint={t`Keys of the types not chosen are refused.`}
        name="policy.key_types"
        error={form.errorOf('policy.key_types')}
      >
        {RSA_KEY_SIZES.map((size) => (
          <li key={size}>
            <Checkbox
              name={`policy.key_types.rsa${CHOICE}${size}`}
              value="on"
              defaultChecked={(policy.key_types.rsa as readonly number[]).includes(size)}
            >
              {`RSA ${size}`}
            </Checkbox>
          </li>
        ))}
        {EC_CURVES.map((curve) => (
          <li key={curve}>
            <Checkbox
              name={`policy.key_types.ec${CHOICE}${curve}`}
              value="on"
              defaultChecked={(policy.key_types.ec as readonly string[]).includes(curve)}
            >
              {`EC ${curve}`}
            </Checkbox>
          </li>
        ))}
      </ChoiceGroup>
      <SubjectRules form={form} policy={policy} />
    </>
  );
}

/** A set of checkboxes that the server and the schema name as one field (`policy.key_usages`). */
function ChoiceGroup({
  legend,
  hint,
  name,
  error,
  children,
}: {
  legend: string;
  hint?: string;
  name: string;
  error: string | undefined;
  children: ReactNode;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <fieldset
      className="profile-form__group"
      name={name}
      tabIndex={-1}
      aria-invalid={Boolean(error) || undefined}
      aria-describedby={describedBy || undefined}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <div className="field__error" id={`${id}-error`}>
          {error}
        </div>
      ) : null}
      <ul className="profile-form__choices">{children}</ul>
    </fieldset>
  );
}

/** Each subject field of a request: required, optional or not allowed. */
function SubjectRules({ form, policy }: { form: FormState; policy: ProfilePolicy }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const options = SUBJECT_FIELD_RULES.map((rule) => ({
    value: rule,
    label: i18n._(SUBJECT_RULE_LABELS[rule]),
  }));
  return (
    <fieldset className="profile-form__group">
      <legend>{t`Subject fields`}</legend>
      <table className="profile-form__subject">
        <thead>
          <tr>
            <th scope="col">
              <Trans>Field</Trans>
            </th>
            <th scope="col">
              <Trans>In a request</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {SUBJECT_FIELDS.map((field) => {
            const name = `policy.subject.${field}`;
            const error = form.errorOf(name);
            const errorId = `${id}-${field}-error`;
            return (
              <tr key={field}>
                <th scope="row" id={`${id}-${field}`}>
                  {i18n._(SUBJECT_FIELD_LABELS[field])}
                </th>
                <td>
                  <select
                    className="field__control"
                    name={name}
                    defaultValue={policy.subject[field]}
                    aria-labelledby={`${id}-${field}`}
                    aria-invalid={Boolean(error) || undefined}
                    aria-describedby={error ? errorId : undefined}
                  >
                    {options.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                  {error ? (
                    <div className="field__error" id={errorId}>
                      {field === 'common_name' ? t`Every certificate needs a common name.` : error}
                    </div>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </fieldset>
  );
}
