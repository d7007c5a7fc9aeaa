import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { type FocusEvent, useRef, useState } from 'react';
import * as v from 'valibot';
import type { AccessScope } from '../../../../contract/permissions.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import type { Tenant, TenantSummary } from '../../../../contract/schemas/tenants.ts';
import type { Role } from '../../../../contract/schemas/users.ts';
import { userNameSchema } from '../../../../contract/validation.ts';
import { type AccountChoice, AccountPicker } from '../../../components/account-picker.tsx';
import { APPLICATION_NAMES, roleDisplayName } from '../../../components/role-labels.ts';
import { type ApplicationGroup, type RoleChoice, RolePicker } from '../../../components/role-picker.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { accountChoicesQueryOptions } from '../../../lib/account-choices.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import type { FormState } from '../../../lib/form/use-form.ts';
import { languageChoices, platformLocales } from '../../../lib/locales.ts';
import { usePublicResource } from '../../../lib/public-data.ts';
import { accountRolesQueryOptions, userNameTaken } from '../queries.ts';
import { heldPermissions, isGrantable } from '../rules.ts';

/** The input names of a person's own fields, in the order shown (PUT user/{id}, step 1 of create). */
export const PERSON_FIELDS = ['first_name', 'last_name', 'email', 'user_name', 'phone', 'locale'] as const;

export const USER_IN_USE_MESSAGES = {
  user_name: msg`This username is already taken.`,
  email: msg`This e-mail address is already used by another user.`,
};

export interface PersonDefaults {
  first_name: string;
  last_name: string;
  email: string;
  user_name: string;
  phone: string;
  locale: string;
}

/**
 * Whether the typed user name is taken, asked (GET user/exists) when the user leaves the field with
 * a valid name other than `current` (the user's own name, when editing).
 */
export function useUserNameCheck(current: string | null) {
  const [taken, setTaken] = useState<string | null>(null);
  const asked = useRef<string | null>(null);
  const onBlur = (event: FocusEvent<HTMLInputElement>) => {
    const name = event.currentTarget.value.trim();
    if (name === current || !v.is(userNameSchema, name) || asked.current === name) return;
    asked.current = name;
    userNameTaken(name).then(
      (exists) => setTaken(exists ? name : null),
      // No answer (offline, a failure): the server checks again on saving.
      () => {
        asked.current = null;
      },
    );
  };
  /** True when the value now in the field is known to be taken. */
  const isTaken = (value: string) => taken !== null && value.trim() === taken;
  return { onBlur, isTaken, takenName: taken };
}

/** Names, e-mail, username (checked on leaving it), phone and language of a person. */
export function PersonFields({
  form,
  defaults,
  userNameCheck,
  emailHint,
}: {
  form: FormState;
  defaults: PersonDefaults;
  userNameCheck: ReturnType<typeof useUserNameCheck>;
  emailHint?: string | undefined;
}) {
  const { t } = useLingui();
  const { data: locales } = usePublicResource(platformLocales);
  const [userName, setUserName] = useState(defaults.user_name);
  const userNameField = form.field('user_name');
  const userNameError =
    userNameField.error ?? (userNameCheck.isTaken(userName) ? t`This username is already taken.` : undefined);
  return (
    <>
      <div className="form__grid">
        <TextField
          label={t`First name`}
          {...form.field('first_name')}
          defaultValue={defaults.first_name}
          autoComplete="off"
          required
        />
        <TextField
          label={t`Last name`}
          {...form.field('last_name')}
          defaultValue={defaults.last_name}
          autoComplete="off"
          required
        />
      </div>
      <TextField
        label={t`E-mail`}
        {...form.field('email')}
        type="email"
        defaultValue={defaults.email}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        description={emailHint}
        required
      />
      <TextField
        label={t`Username`}
        name={userNameField.name}
        error={userNameError}
        defaultValue={defaults.user_name}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        onChange={(event) => setUserName(event.currentTarget.value)}
        onBlur={userNameCheck.onBlur}
        required
      />
      <div className="form__grid">
        <TextField
          label={t`Phone (optional)`}
          {...form.field('phone')}
          type="tel"
          defaultValue={defaults.phone}
          autoComplete="off"
        />
        <SelectField
          label={t`Language`}
          {...form.field('locale')}
          defaultValue={defaults.locale}
          options={[
            { value: '', label: t`Choose a language` },
            ...languageChoices(locales?.items).map((choice) => ({
              value: choice.code,
              label: choice.name,
              lang: choice.lang,
            })),
          ]}
          required
        />
      </div>
    </>
  );
}

/** Every value of a multi-valued input (checkboxes under one name), as `FormData` has them. */
export function allValues(form: HTMLFormElement | null, name: string): string[] {
  if (!form) return [];
  return new FormData(form).getAll(name).filter((value): value is string => typeof value === 'string');
}

/**
 * The applications to offer roles in: those the account licenses, when it could be read; else those
 * the roles belong to. Account Manager, where administration happens, always comes first.
 */
export function applicationGroups(account: Tenant | undefined, roles: readonly Role[]): ApplicationGroup[] {
  const groups = new Map<string, string>();
  if (account) {
    for (const application of account.applications) groups.set(application.app_code, application.app_name);
  }
  for (const role of roles) {
    if (!groups.has(role.app_code) && (!account || role.app_code === 'account_manager')) {
      groups.set(role.app_code, APPLICATION_NAMES[role.app_code]);
    }
  }
  return [...groups.entries()]
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => Number(b.code === 'account_manager') - Number(a.code === 'account_manager'));
}

/** The built-in roles made for one scope (G6); the others (the read-only auditor) fit any. */
const BUILT_IN_ROLE_SCOPES: Readonly<Record<string, AccessScope>> = {
  system_administrator: 'system',
  partner_administrator: 'partner',
  account_administrator: 'account',
};

export function builtInRoleFits(code: string | null, scope: AccessScope | null): boolean {
  const only = code === null ? undefined : BUILT_IN_ROLE_SCOPES[code];
  return only === undefined || scope === null || only === scope;
}

/** The scope a user gets from its primary account's type (decision 018 §4). */
export function scopeOfAccount(account: Pick<TenantSummary, 'system_account' | 'type'>): AccessScope {
  return account.system_account ? 'system' : account.type === 'partner' ? 'partner' : 'account';
}

/**
 * The roles a user of `accountId` may be given, per application, each marked grantable or not by
 * the caller's own permissions; custom roles only with the roles feature on (decision 039 §3).
 */
export function RoleFields({
  form,
  accountId,
  account,
  profile,
  selected,
  scope,
}: {
  form: FormState;
  accountId: string;
  account: Tenant | undefined;
  profile: Profile;
  selected: ReadonlySet<string>;
  /** The user's scope, when known: built-in roles made for another scope are not offered (G6). */
  scope: AccessScope | null;
}) {
  const { t, i18n } = useLingui();
  const flags = useFeatureFlags();
  const roles = useQuery(accountRolesQueryOptions(accountId));
  if (roles.isPending) {
    return (
      <p role="status">
        <Trans>Loading roles…</Trans>
      </p>
    );
  }
  if (roles.isError) {
    return (
      <p role="alert">
        <Trans>The roles could not be loaded. Reload the page to try again.</Trans>
      </p>
    );
  }
  const held = heldPermissions(profile);
  const offered = roles.data.items.filter(
    (role) => selected.has(role.id) || (role.built_in ? builtInRoleFits(role.code, scope) : flags.roles),
  );
  const choices: RoleChoice[] = offered.map((role) => ({
    id: role.id,
    name: roleDisplayName(role, i18n),
    app_code: role.app_code,
    built_in: role.built_in,
    grantable: isGrantable(role, held),
  }));
  return (
    <RolePicker
      legend={t`Roles per application`}
      name="role_ids"
      applications={applicationGroups(account, offered)}
      roles={choices}
      selected={selected}
      error={form.errorOf('role_ids')}
    />
  );
}

/** The accounts a caller may add a user to, beside the primary one (`exclude`). */
export function useAccountChoices(profile: Profile) {
  const { t } = useLingui();
  // Account scope manages the users of its own account only; the profile lists its accounts.
  const ownOnly = profile.access_scope === 'account';
  const list = useQuery({ ...accountChoicesQueryOptions(), enabled: !ownOnly });
  const accounts: (AccountChoice & { summary?: TenantSummary })[] = ownOnly
    ? profile.accounts.map((account) => ({ id: account.id, name: account.display_name }))
    : (list.data?.items ?? []).map((account) => ({
        id: account.id,
        name: account.display_name,
        summary: account,
      }));
  const status =
    !ownOnly && list.isPending
      ? t`Loading accounts…`
      : !ownOnly && list.isError
        ? t`The accounts could not be loaded. Reload the page to try again.`
        : undefined;
  return { accounts, status };
}

/** Further accounts of a user, the primary one left out. */
export function FurtherAccounts({
  form,
  accounts,
  status,
  primaryAccountId,
  selected,
}: {
  form: FormState;
  accounts: readonly AccountChoice[];
  status: string | undefined;
  primaryAccountId: string;
  selected: ReadonlySet<string>;
}) {
  const { t } = useLingui();
  return (
    <AccountPicker
      legend={t`More accounts (optional)`}
      name="account_ids"
      accounts={accounts.filter((account) => account.id !== primaryAccountId)}
      selected={selected}
      status={status}
      error={form.errorOf('account_ids')}
    />
  );
}
