import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { APPLICATION_CODES, type ApplicationCode } from '../../../../contract/permissions.ts';
import {
  ROLE_DESCRIPTION_MAX_LENGTH,
  type RoleDetails,
  roleCreateSchema,
  roleUpdateSchema,
} from '../../../../contract/schemas/users.ts';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { MessagePage } from '../../../components/message-page.tsx';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { APPLICATION_NAMES, permissionLabel, roleDisplayName } from '../../../components/role-labels.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { switchableAccountsOf, useProfile } from '../../../lib/current-user.ts';
import { type FormValues, useForm } from '../../../lib/form/use-form.ts';
import { useOnline } from '../../../lib/offline/online.ts';
import { useCreateRole, useUpdateRole } from '../mutations.ts';
import { initialSelection } from '../permission-model.ts';
import { isRoleNameUnique, permissionGroupsQueryOptions, roleAccountQueryOptions } from '../queries.ts';
import { PermissionPicker } from './permission-picker.tsx';
import './roles.css';

const NAME_TAKEN = msg`A role with this name already exists for this account and application.`;

/** `onAccountChange`: the viewer chose another account for the new role (system and partner scope). */
export type RoleFormMode =
  | { kind: 'create'; accountId: string; onAccountChange: (accountId: string) => void }
  | { kind: 'clone'; accountId: string; source: RoleDetails; onAccountChange: (accountId: string) => void }
  | { kind: 'edit'; role: RoleDetails };

/** The request as the form holds it; the contract schema trims and checks it. */
export function roleRequest(
  mode: RoleFormMode,
  values: FormValues,
  application: ApplicationCode,
  permissions: ReadonlySet<string>,
) {
  const base = {
    name: values.name ?? '',
    description: values.description ?? '',
    permissions: [...permissions],
  };
  if (mode.kind === 'edit') return base;
  return {
    ...base,
    application_id: application,
    account_id: mode.accountId,
    ...(mode.kind === 'clone' ? { cloned_from: mode.source.id } : {}),
  };
}

/** Create role, Clone role (filled from the source, "Copy of …") and Edit role (decision 018 §8.6). */
export function RoleFormPage({ mode }: { mode: RoleFormMode }) {
  if (mode.kind === 'edit' && !mode.role.editable) return <RoleNotEditable role={mode.role} />;
  return <RoleForm mode={mode} />;
}

function RoleNotEditable({ role }: { role: RoleDetails }) {
  const { i18n } = useLingui();
  const name = roleDisplayName(role, i18n);
  return (
    <MessagePage title={<Trans>You cannot edit the role {name}</Trans>}>
      <p>
        {role.built_in ? (
          <Trans>Built-in roles cannot be changed. Clone it to make a role of your own from it.</Trans>
        ) : role.status === 'archived' ? (
          <Trans>Archived roles are read-only. Clone it to use its permissions again.</Trans>
        ) : (
          <Trans>
            It grants permissions you do not hold yourself, or user roles are managed by someone else. Ask an
            administrator who holds everything it grants.
          </Trans>
        )}
      </p>
      <p>
        <Link to="/access/manage-user-roles/role-detail/$id" params={{ id: role.id }}>
          <Trans>Go to the role</Trans>
        </Link>
      </p>
    </MessagePage>
  );
}

function RoleForm({ mode }: { mode: RoleFormMode }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const online = useOnline();
  const profile = useProfile();
  const source = mode.kind === 'create' ? null : mode.kind === 'clone' ? mode.source : mode.role;
  const accountId = mode.kind === 'edit' ? (mode.role.account_id ?? '') : mode.accountId;
  const [application, setApplication] = useState<ApplicationCode>(source?.app_code ?? 'account_manager');
  const groups = useQuery(permissionGroupsQueryOptions(application, accountId));
  const account = useQuery(roleAccountQueryOptions(accountId));
  const [selection, setSelection] = useState<{ selected: Set<string>; left: string[] } | null>(null);
  // Filled once the groups say what may be granted: a clone or an edit starts from its role's permissions.
  if (selection === null && groups.data) {
    const offered = groups.data.items.flatMap((group) => group.permissions);
    setSelection(source ? initialSelection(source.permissions, offered) : { selected: new Set(), left: [] });
  }
  const [nameTaken, setNameTaken] = useState(false);
  const create = useCreateRole();
  const update = useUpdateRole(mode.kind === 'edit' ? mode.role.id : '');
  const selected = selection?.selected ?? new Set<string>();

  const form = useForm(mode.kind === 'edit' ? roleUpdateSchema : roleCreateSchema, {
    request: (values) => roleRequest(mode, values, application, selected),
    inUseMessages: { name: NAME_TAKEN },
    onSubmit: async (request) => {
      if (mode.kind === 'edit') {
        await update.mutateAsync({ update: request, version: mode.role.version });
        showToast('success', t`Role updated.`);
        void navigate({ to: '/access/manage-user-roles/role-detail/$id', params: { id: mode.role.id } });
        return;
      }
      const created = await create.mutateAsync(request as Parameters<typeof create.mutateAsync>[0]);
      showToast('success', t`Role created.`);
      void navigate({ to: '/access/manage-user-roles/role-detail/$id', params: { id: created.id } });
    },
  });

  const checkName = (typed: string) => {
    const name = typed.trim();
    if (!online || name === '' || !accountId) return;
    // The role's own name is not taken by another role.
    if (mode.kind === 'edit' && name.toLowerCase() === mode.role.name.toLowerCase()) return;
    isRoleNameUnique({ application_id: application, account_id: accountId, name })
      .then((unique) => setNameTaken(!unique))
      .catch(() => setNameTaken(false));
  };

  const sourceName = source ? roleDisplayName(source, i18n) : '';
  const title =
    mode.kind === 'create' ? (
      <Trans>Create role</Trans>
    ) : mode.kind === 'clone' ? (
      <Trans>Clone role {sourceName}</Trans>
    ) : (
      <Trans>Edit role {sourceName}</Trans>
    );
  const defaultName =
    mode.kind === 'clone' ? t`Copy of ${sourceName}` : mode.kind === 'edit' ? mode.role.name : '';
  const nameField = form.field('name');
  const accountName = account.data?.name ?? accountId;
  const back =
    mode.kind === 'create'
      ? ({ to: '/access/manage-user-roles' } as const)
      : ({
          to: '/access/manage-user-roles/role-detail/$id',
          params: { id: (source as RoleDetails).id },
        } as const);

  return (
    <section className="page role-form-page" aria-labelledby="page-title">
      <h1 id="page-title" className="page__title">
        {title}
      </h1>
      <Form form={form} className="form role-form" aria-labelledby="page-title">
        <fieldset className="role-form__details">
          <legend className="role-form__legend">
            <Trans>Role</Trans>
          </legend>
          {mode.kind === 'create' ? (
            <SelectField
              label={t`Application`}
              name="application_id"
              value={application}
              options={APPLICATION_CODES.map((code) => ({ value: code, label: APPLICATION_NAMES[code] }))}
              onChange={(event) => {
                const next = APPLICATION_CODES.find((code) => code === event.target.value);
                if (!next) return;
                setApplication(next);
                setSelection(null);
                setNameTaken(false);
              }}
              required
            />
          ) : (
            <p className="role-form__fixed">
              <span className="role-form__fixed-label">
                <Trans>Application</Trans>
              </span>{' '}
              {APPLICATION_NAMES[application]}
            </p>
          )}
          {mode.kind !== 'edit' && profile.access_scope !== 'account' ? (
            <SelectField
              label={t`Account`}
              description={t`The account whose users may hold the role. The header's account is chosen first.`}
              value={accountId}
              options={accountOptions(switchableAccountsOf(profile), accountId, accountName)}
              onChange={(event) => mode.onAccountChange(event.target.value)}
              required
            />
          ) : (
            <p className="role-form__fixed">
              <span className="role-form__fixed-label">
                <Trans>Account</Trans>
              </span>{' '}
              {accountName}
            </p>
          )}
          <TextField
            label={t`Name`}
            name={nameField.name}
            error={nameField.error ?? (nameTaken ? i18n._(NAME_TAKEN) : undefined)}
            defaultValue={defaultName}
            maxLength={256}
            autoComplete="off"
            required
            onChange={() => setNameTaken(false)}
            onBlur={(event) => checkName(event.currentTarget.value)}
          />
          <TextAreaField
            label={t`Description`}
            {...form.field('description')}
            defaultValue={source?.description ?? ''}
            maxLength={ROLE_DESCRIPTION_MAX_LENGTH}
            rows={3}
          />
        </fieldset>
        <fieldset className="role-form__permissions">
          <legend className="role-form__legend">
            <Trans>Permissions</Trans>
          </legend>
          {selection && selection.left.length > 0 ? (
            <Alert tone="info">
              <p>
                <Trans>These permissions of {sourceName} are left out, as you cannot grant them:</Trans>
              </p>
              <ul>
                {selection.left.map((name) => (
                  <li key={name}>{permissionLabel(name, i18n)}</li>
                ))}
              </ul>
            </Alert>
          ) : null}
          <QueryStatus query={groups} pendingText={<Trans>Loading permissions…</Trans>}>
            {({ items }) =>
              items.length === 0 ? (
                <p>
                  <Trans>This application has no permissions a role could grant yet.</Trans>
                </p>
              ) : (
                <PermissionPicker
                  groups={items}
                  selected={selected}
                  onChange={(next) =>
                    setSelection((current) => ({ left: current?.left ?? [], selected: next }))
                  }
                />
              )
            }
          </QueryStatus>
          <p role="status" className="role-form__count">
            <Plural value={selected.size} one="# permission chosen" other="# permissions chosen" />
          </p>
        </fieldset>
        <div className="form__actions">
          <NeedsConnection>
            {(gate) => (
              <Button {...form.submitProps} {...gate.controlProps}>
                {mode.kind === 'edit' ? <Trans>Save</Trans> : <Trans>Create role</Trans>}
              </Button>
            )}
          </NeedsConnection>
          <Link {...back} className="button button--secondary">
            <Trans>Cancel</Trans>
          </Link>
        </div>
      </Form>
    </section>
  );
}

/** The accounts the viewer works in, and the one the address names when it is another. */
function accountOptions(
  accounts: readonly { id: string; display_name: string }[],
  accountId: string,
  accountName: string,
) {
  const options = accounts.map((account) => ({ value: account.id, label: account.display_name }));
  return options.some((option) => option.value === accountId)
    ? options
    : [{ value: accountId, label: accountName }, ...options];
}
