import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { onlineManager, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { HTMLInputAutoCompleteAttribute } from 'react';
import { DEFAULT_PLATFORM_LOCALE } from '../../../../contract/locales.ts';
import { ALL_ITEMS_LIMIT } from '../../../../contract/schemas/common.ts';
import { type CREATABLE_TENANT_TYPES, tenantCreateSchema } from '../../../../contract/schemas/tenants.ts';
import { ForbiddenPage } from '../../../components/forbidden-page.tsx';
import { notify } from '../../../components/notify.ts';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { today } from '../../../lib/dates.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { type FormState, type FormValues, nestValues, useForm } from '../../../lib/form/use-form.ts';
import { useCreateAccount } from '../mutations.ts';
import { accountListQueryOptions } from '../queries.ts';
import { AccountFields, AccountFormFrame, servicePeriodRule } from './account-form-fields.tsx';

type CreatableType = (typeof CREATABLE_TENANT_TYPES)[number];

const ADMINISTRATOR_FIELDS: readonly {
  name: 'first_name' | 'last_name' | 'email' | 'user_name' | 'password' | 'repeatedPassword';
  label: MessageDescriptor;
  type: 'text' | 'email' | 'password';
  /** Someone else's details: the browser must not fill in the signed-in administrator's own. */
  autoComplete: HTMLInputAutoCompleteAttribute;
  /** Typed exactly as it will be used: no automatic capitals or spelling corrections. */
  verbatim: boolean;
  hint?: MessageDescriptor;
}[] = [
  { name: 'first_name', label: msg`First name`, type: 'text', autoComplete: 'off', verbatim: false },
  { name: 'last_name', label: msg`Last name`, type: 'text', autoComplete: 'off', verbatim: false },
  { name: 'email', label: msg`Email`, type: 'email', autoComplete: 'off', verbatim: true },
  { name: 'user_name', label: msg`Username`, type: 'text', autoComplete: 'off', verbatim: true },
  {
    name: 'password',
    label: msg`Password`,
    type: 'password',
    autoComplete: 'new-password',
    verbatim: true,
    hint: msg`At least 12 characters, with upper-case and lower-case letters, a digit and a symbol.`,
  },
  {
    name: 'repeatedPassword',
    label: msg`Repeat password`,
    type: 'password',
    autoComplete: 'new-password',
    verbatim: true,
  },
];

/** What the server says on a field whose value another record already has. */
const IN_USE_MESSAGES = {
  friendly_identifier: msg`This friendly identifier is already used by another account.`,
  'administrator.user_name': msg`This user name is already taken.`,
  'administrator.email': msg`This email is already used by another user.`,
};

/** The request as typed; the contract schema trims and checks it. An empty optional choice is left out. */
function createRequest(values: FormValues, type: CreatableType) {
  const { partner_account_id, friendly_identifier, ...request } = nestValues(values);
  const identifier = String(friendly_identifier ?? '').trim();
  return {
    ...request,
    type,
    ...(partner_account_id ? { partner_account_id } : {}),
    ...(identifier ? { friendly_identifier: identifier } : {}),
  };
}

/**
 * The contract compares the passwords only once everything else is valid (`withPasswordConfirmation`);
 * the form says it as soon as the repeated one is typed.
 */
function passwordsMatch(values: FormValues) {
  const repeated = values['administrator.repeatedPassword'] ?? '';
  if (repeated === '' || repeated === values['administrator.password']) return {};
  return { 'administrator.repeatedPassword': 'passwordConfirmationMismatch' as const };
}

/** System scope places a standard account under a partner, or directly under the platform. */
function PartnerSelect({ form }: { form: FormState }) {
  const { t } = useLingui();
  const partners = useQuery(
    accountListQueryOptions({
      type: 'partner',
      active: 'true',
      limit: String(ALL_ITEMS_LIMIT),
      sort: 'name:asc',
    }),
  );
  const options = [
    { value: '', label: t`None — directly under the platform` },
    ...(partners.data?.items ?? []).map((partner) => ({ value: partner.id, label: partner.display_name })),
  ];
  const status = partners.isPending
    ? t`Loading partner accounts…`
    : partners.isError
      ? t`Partner accounts could not be loaded; reload the page to choose one.`
      : undefined;
  return (
    <SelectField
      label={t`Partner`}
      {...form.field('partner_account_id')}
      defaultValue=""
      options={options}
      description={status}
    />
  );
}

function AccountCreateForm({ type }: { type: CreatableType }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const profile = useProfile();
  const featureFlags = useFeatureFlags();
  const create = useCreateAccount();
  const todayDate = today();
  const choosesPartner =
    profile.access_scope === 'system' && type === 'standard' && featureFlags.partner_accounts;

  const periodRule = servicePeriodRule(null);
  const form = useForm(tenantCreateSchema, {
    request: (values) => createRequest(values, type),
    refine: (values) => ({ ...periodRule(values), ...passwordsMatch(values) }),
    inUseMessages: IN_USE_MESSAGES,
    onSubmit: async (request) => {
      // A new account cannot wait in the outbox: offline, the button says it needs a connection.
      if (!onlineManager.isOnline()) return;
      const created = await create.mutateAsync(request);
      notify('success', t`Account created.`);
      void navigate({ to: '/accounts/$id', params: { id: created.id } });
    },
  });

  const title = type === 'partner' ? <Trans>Create partner account</Trans> : <Trans>Create account</Trans>;

  return (
    <AccountFormFrame
      title={title}
      notices={
        profile.access_scope === 'partner' ? (
          <p>
            <Trans>The new account is created under your partner account.</Trans>
          </p>
        ) : null
      }
      form={form}
      submit={{ label: title, needsConnection: true }}
    >
      <AccountFields
        mode="create"
        defaults={{
          name: '',
          friendlyIdentifier: '',
          locale: DEFAULT_PLATFORM_LOCALE,
          from: todayDate.toString(),
          to: '',
        }}
        form={form}
      />
      {choosesPartner ? <PartnerSelect form={form} /> : null}
      <fieldset className="account-form__fieldset">
        <legend className="account-form__legend">
          <Trans>First administrator</Trans>
        </legend>
        <p className="field__hint">
          <Trans>
            This person administers the new account and signs in with the user name and password set here.
          </Trans>
        </p>
        <div className="form__grid">
          {ADMINISTRATOR_FIELDS.map((field) => (
            <TextField
              key={field.name}
              label={i18n._(field.label)}
              {...form.field(`administrator.${field.name}`)}
              type={field.type}
              autoComplete={field.autoComplete}
              autoCapitalize={field.verbatim ? 'none' : undefined}
              spellCheck={field.verbatim ? false : undefined}
              description={field.hint ? i18n._(field.hint) : undefined}
              required
            />
          ))}
        </div>
      </fieldset>
    </AccountFormFrame>
  );
}

/**
 * Create account and Create partner account. Partner accounts are created by system scope only; a
 * partner creates standard accounts under itself; account scope creates none (the 403 page).
 */
export function AccountCreatePage({ type }: { type: CreatableType }) {
  const profile = useProfile();
  const scopeAllowed =
    type === 'partner' ? profile.access_scope === 'system' : profile.access_scope !== 'account';
  if (!scopeAllowed) return <ForbiddenPage />;
  return (
    <RequirePermissions flags={['canManageAccount']}>
      <AccountCreateForm type={type} />
    </RequirePermissions>
  );
}
