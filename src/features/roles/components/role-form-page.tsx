import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { APPLICATION_CODES, type ApplicationCode } from '../../../../contract/permissions.ts';
import {
  ROLE_DESCRIPTION_MAX_LENGTH,
  type RoleDetails,
  roleCreateSchema,
  roleUpdateSchema,
} from '../../../../contract/schemas/users.ts';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { MessagePage } from '../../../components/message-page.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { APPLICATION_NAMES, permissionLabel, roleDisplayName } from '../../../components/role-labels.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { switchableAccountsOf, useProfile } from '../../../lib/current-user.ts';
import { reachableStep, type StepFields, stepOfField, validateFields } from '../../../lib/form/steps.ts';
import { type FormValues, useForm } from '../../../lib/form/use-form.ts';
import { useOnline } from '../../../lib/offline/online.ts';
import { usePageStep } from '../../../lib/page-mode.ts';
import { useCreateRole, useUpdateRole } from '../mutations.ts';
import { initialSelection } from '../permission-model.ts';
import { isRoleNameUnique, permissionGroupsQueryOptions, roleAccountQueryOptions } from '../queries.ts';
import { PermissionPicker } from './permission-picker.tsx';
import './roles.css';
import { PageTitle } from '../../../components/page-title.tsx';

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

/** Create role, Clone role (filled from the source, "Copy of …") and Edit role (decision 039 §6). */
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

/**
 * The inputs of each step (decision 039 §1, §6): create and clone ask for the role (application,
 * account, name, description), then its permissions, then review; edit asks for name, description and
 * permissions with the application and account fixed, then review.
 */
const CREATE_STEPS: StepFields = [
  ['application_id', 'account_id', 'name', 'description'],
  ['permissions'],
  [],
];
const EDIT_STEPS: StepFields = [['name', 'description', 'permissions'], []];

/** The step headings, as a list of steps with the current one marked. */
function RoleStepList({ step, labels }: { step: number; labels: readonly ReactNode[] }) {
  const { t } = useLingui();
  return (
    <ol className="role-form__steps" aria-label={t`Steps`}>
      {labels.map((label, index) => (
        <li
          // Fixed steps, never reordered.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={index}
          className="role-form__step-label"
          aria-current={index + 1 === step ? 'step' : undefined}
        >
          {label}
        </li>
      ))}
    </ol>
  );
}

function RoleForm({ mode }: { mode: RoleFormMode }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const online = useOnline();
  const profile = useProfile();
  const [step, setStep] = usePageStep();
  const formRef = useRef<HTMLFormElement>(null);
  const focusAfterStep = useRef<string | null>(null);
  const steps = mode.kind === 'edit' ? EDIT_STEPS : CREATE_STEPS;
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
  const [review, setReview] = useState<{ name: string; description: string }>({ name: '', description: '' });
  const create = useCreateRole();
  const update = useUpdateRole(mode.kind === 'edit' ? mode.role.id : '');
  const selected = selection?.selected ?? new Set<string>();

  const openStepOf = (failure: unknown) => {
    // A field of another step: open that step, and focus the field once it shows.
    if (!(failure instanceof ApiError) || !failure.field) return;
    const owner = stepOfField(steps, failure.field);
    if (owner !== null && owner !== step) {
      focusAfterStep.current = failure.field;
      setStep(owner);
    }
  };

  const form = useForm(mode.kind === 'edit' ? roleUpdateSchema : roleCreateSchema, {
    request: (values) => roleRequest(mode, values, application, selected),
    inUseMessages: { name: NAME_TAKEN },
    onSubmit: async (request) => {
      try {
        if (mode.kind === 'edit') {
          await update.mutateAsync({ update: request, version: mode.role.version });
          notify('success', t`Role updated.`);
          void navigate({ to: '/access/manage-user-roles/role-detail/$id', params: { id: mode.role.id } });
          return;
        }
        const created = await create.mutateAsync(request as Parameters<typeof create.mutateAsync>[0]);
        notify('success', t`Role created.`);
        void navigate({ to: '/access/manage-user-roles/role-detail/$id', params: { id: created.id } });
      } catch (failure) {
        openStepOf(failure);
        throw failure;
      }
    },
  });

  /** Whether another role has the name: asked on leaving the field and again before going on. */
  const nameIsTaken = async (typed: string): Promise<boolean> => {
    const name = typed.trim();
    if (!online || name === '' || !accountId) return false;
    // The role's own name is not taken by another role.
    if (mode.kind === 'edit' && name.toLowerCase() === mode.role.name.toLowerCase()) return false;
    try {
      return !(await isRoleNameUnique({ application_id: application, account_id: accountId, name }));
    } catch {
      return false;
    }
  };
  const checkName = (typed: string) => {
    void nameIsTaken(typed).then(setNameTaken);
  };

  // Opened at a later step (a reload, a shared address): the first step with a fault comes first.
  const checkedOpening = useRef(false);
  useEffect(() => {
    if (checkedOpening.current || !formRef.current) return;
    checkedOpening.current = true;
    const reachable = reachableStep(form, formRef.current, steps, step);
    if (reachable !== step) setStep(reachable);
  }, [form, steps, step, setStep]);

  // The review shows what the inputs hold now, also when the page is reloaded at it.
  const readReview = useCallback(() => {
    const element = formRef.current;
    if (!element) return;
    const data = new FormData(element);
    setReview({ name: String(data.get('name') ?? ''), description: String(data.get('description') ?? '') });
  }, []);
  useEffect(() => {
    if (step === steps.length) readReview();
  }, [step, steps.length, readReview]);

  // A new step: focus goes to the field the server named, else to the step's first field (its
  // heading on the review), so keyboard and screen-reader users start where the step does.
  const shownStep = useRef(step);
  useEffect(() => {
    const element = formRef.current;
    if (!element) return;
    const field = focusAfterStep.current;
    if (field) {
      focusAfterStep.current = null;
      element.querySelector<HTMLElement>(`[name="${field}"]:not(:disabled)`)?.focus();
    } else if (shownStep.current !== step) {
      element
        .querySelector<HTMLElement>(
          'fieldset:not([hidden]) :is(input:not([type="hidden"]), select, textarea):not(:disabled), fieldset:not([hidden]) .role-form__review',
        )
        ?.focus();
    }
    shownStep.current = step;
  });

  const next = async () => {
    const element = formRef.current;
    if (!element) return;
    if (!validateFields(form, element, steps[step - 1] ?? [])) return;
    const fields = steps[step - 1] ?? [];
    if (fields.includes('name')) {
      const taken = await nameIsTaken(String(new FormData(element).get('name') ?? ''));
      setNameTaken(taken);
      if (taken) {
        element.querySelector<HTMLElement>('[name="name"]')?.focus();
        return;
      }
    }
    setStep(step + 1);
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
  const stepLabels =
    mode.kind === 'edit'
      ? [<Trans key="1">Name and permissions</Trans>, <Trans key="2">Review</Trans>]
      : [<Trans key="1">Role</Trans>, <Trans key="2">Permissions</Trans>, <Trans key="3">Review</Trans>];
  const total = steps.length;
  const permissionsStep = mode.kind === 'edit' ? 1 : 2;
  const reviewStep = total;
  const chosen = (groups.data?.items ?? []).flatMap((group) =>
    group.permissions
      .filter((permission) => selected.has(permission.name))
      .map((permission) => permission.name),
  );

  const fixedApplication = (
    <p className="role-form__fixed">
      <span className="role-form__fixed-label">
        <Trans>Application</Trans>
      </span>{' '}
      {APPLICATION_NAMES[application]}
    </p>
  );
  const fixedAccount = (
    <p className="role-form__fixed">
      <span className="role-form__fixed-label">
        <Trans>Account</Trans>
      </span>{' '}
      {accountName}
    </p>
  );
  const nameAndDescription = (
    <>
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
    </>
  );

  return (
    <section className="page role-form-page" aria-labelledby="page-title">
      <PageTitle>{title}</PageTitle>
      <RoleStepList step={step} labels={stepLabels} />
      <Form
        form={form}
        ref={formRef}
        className="form role-form"
        aria-labelledby="page-title"
        // Enter before the last step goes on to the next step, not to saving.
        onSubmitCapture={(event) => {
          if (step >= total) return;
          event.preventDefault();
          event.stopPropagation();
          void next();
        }}
      >
        {mode.kind === 'edit' ? null : (
          <fieldset hidden={step !== 1} className="role-form__details">
            <legend className="role-form__legend">
              <Trans>Step 1 of 3: Role</Trans>
            </legend>
            {mode.kind === 'create' ? (
              <SelectField
                label={t`Application`}
                name="application_id"
                value={application}
                options={APPLICATION_CODES.map((code) => ({ value: code, label: APPLICATION_NAMES[code] }))}
                onChange={(event) => {
                  const chosenApplication = APPLICATION_CODES.find((code) => code === event.target.value);
                  if (!chosenApplication) return;
                  setApplication(chosenApplication);
                  setSelection(null);
                  setNameTaken(false);
                }}
                required
              />
            ) : (
              fixedApplication
            )}
            {profile.access_scope !== 'account' ? (
              <SelectField
                label={t`Account`}
                description={t`The account whose users may hold the role. The header's account is chosen first.`}
                name="account_id"
                value={accountId}
                options={accountOptions(switchableAccountsOf(profile), accountId, accountName)}
                onChange={(event) => mode.onAccountChange(event.target.value)}
                required
              />
            ) : (
              fixedAccount
            )}
            {nameAndDescription}
          </fieldset>
        )}
        <fieldset hidden={step !== permissionsStep} className="role-form__permissions">
          <legend className="role-form__legend">
            {mode.kind === 'edit' ? (
              <Trans>Step 1 of 2: Name and permissions</Trans>
            ) : (
              <Trans>Step 2 of 3: Permissions</Trans>
            )}
          </legend>
          {mode.kind === 'edit' ? (
            <>
              {fixedApplication}
              {fixedAccount}
              {nameAndDescription}
            </>
          ) : null}
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
                  onChange={(picked) =>
                    setSelection((current) => ({ left: current?.left ?? [], selected: picked }))
                  }
                />
              )
            }
          </QueryStatus>
          <p role="status" className="role-form__count">
            <Plural value={selected.size} one="# permission chosen" other="# permissions chosen" />
          </p>
        </fieldset>
        <fieldset hidden={step !== reviewStep} className="role-form__details">
          <legend className="role-form__legend">
            {mode.kind === 'edit' ? <Trans>Step 2 of 2: Review</Trans> : <Trans>Step 3 of 3: Review</Trans>}
          </legend>
          <dl className="role-form__review" tabIndex={-1}>
            <dt>
              <Trans>Application</Trans>
            </dt>
            <dd>{APPLICATION_NAMES[application]}</dd>
            <dt>
              <Trans>Account</Trans>
            </dt>
            <dd>{accountName}</dd>
            <dt>
              <Trans>Name</Trans>
            </dt>
            <dd>{review.name}</dd>
            <dt>
              <Trans>Description</Trans>
            </dt>
            <dd>{review.description.trim() === '' ? <Trans>None</Trans> : review.description}</dd>
            <dt>
              <Plural value={chosen.length} one="# permission" other="# permissions" />
            </dt>
            <dd>
              {chosen.length === 0 ? (
                <Trans>None: the role grants nothing until permissions are added.</Trans>
              ) : (
                <ul className="role-form__review-permissions">
                  {chosen.map((name) => (
                    <li key={name}>{permissionLabel(name, i18n)}</li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
        </fieldset>
        <div className="form__actions">
          {step > 1 ? (
            <Button variant="secondary" onClick={() => setStep(step - 1)}>
              <Trans>Previous</Trans>
            </Button>
          ) : null}
          {step < total ? (
            <Button onClick={() => void next()}>
              <Trans>Next</Trans>
            </Button>
          ) : (
            <NeedsConnection>
              {(gate) => (
                <Button {...form.submitProps} {...gate.controlProps}>
                  {mode.kind === 'edit' ? <Trans>Save</Trans> : <Trans>Create role</Trans>}
                </Button>
              )}
            </NeedsConnection>
          )}
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
