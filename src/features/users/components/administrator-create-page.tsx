import { Trans, useLingui } from '@lingui/react/macro';
import { onlineManager, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { DEFAULT_PLATFORM_LOCALE } from '../../../../contract/locales.ts';
import { userCreateSchema } from '../../../../contract/schemas/users.ts';
import { AliasesEditor, aliasesOf, aliasRules } from '../../../components/aliases-editor.tsx';
import { DetailsRow } from '../../../components/details-row.tsx';
import { ForbiddenPage } from '../../../components/forbidden-page.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { resolveActiveAccountId, useStoredActiveAccountId } from '../../../lib/active-account.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useProfile } from '../../../lib/current-user.ts';
import { reachableStep, type StepFields, stepOfField, validateFields } from '../../../lib/form/steps.ts';
import { type FormValues, useForm } from '../../../lib/form/use-form.ts';
import { usePageStep } from '../../../lib/page-mode.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { useCreateUser } from '../mutations.ts';
import { userAccountQueryOptions } from '../queries.ts';
import { mayCreateUsers, mayManageScope } from '../rules.ts';
import {
  allValues,
  FurtherAccounts,
  PERSON_FIELDS,
  PersonFields,
  RoleFields,
  scopeOfAccount,
  USER_IN_USE_MESSAGES,
  useAccountChoices,
  useUserNameCheck,
} from './user-form-fields.tsx';
import { SCOPE_LABELS } from './user-labels.tsx';
import './administrator-forms.css';
import { PageTitle } from '../../../components/page-title.tsx';

/** The wizard's steps and the inputs each holds (decision 039 §4). */
const STEPS: StepFields = [PERSON_FIELDS, ['primary_account_id', 'account_ids'], ['role_ids'], ['sign_in']];

/** Whether the account offers a single sign-on method a new user could be sent to. */
function hasSingleSignOn(methods: readonly { signInMethod: string; status: string }[] | undefined) {
  return (methods ?? []).some((method) => method.signInMethod !== 'standard' && method.status === 'enabled');
}

/** The names of the checked choices under `name`, as their labels say them. */
function checkedLabels(form: HTMLFormElement, name: string): string[] {
  return [...form.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="${name}"]:checked`)].map(
    (input) =>
      input.closest('.checkbox')?.querySelector('.checkbox__label')?.firstChild?.textContent?.trim() ?? '',
  );
}

/** The step headings, shown as a list of steps with the current one marked. */
function StepList({ step, labels }: { step: number; labels: readonly ReactNode[] }) {
  const { t } = useLingui();
  return (
    <ol className="form-steps" aria-label={t`Steps`}>
      {labels.map((label, index) => (
        <li
          // Fixed steps, never reordered.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={index}
          className="form-steps__step"
          aria-current={index + 1 === step ? 'step' : undefined}
        >
          {label}
        </li>
      ))}
    </ol>
  );
}

function AdministratorCreateForm() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const profile = useProfile();
  const flags = usePermissionFlags();
  const storedAccount = useStoredActiveAccountId();
  const [step, setStep] = usePageStep();
  const formRef = useRef<HTMLFormElement>(null);
  const focusAfterStep = useRef<string | null>(null);
  const create = useCreateUser();
  const userNameCheck = useUserNameCheck(null);
  const { accounts, status: accountsStatus } = useAccountChoices(profile);
  const [primaryAccountId, setPrimaryAccountId] = useState(() =>
    resolveActiveAccountId(storedAccount, profile.accounts, profile.primary_account_id),
  );
  const account = useQuery(userAccountQueryOptions(primaryAccountId));
  const [review, setReview] = useState<FormValues>({});
  const [chosenNames, setChosenNames] = useState<{ roles: string[]; accounts: string[] }>({
    roles: [],
    accounts: [],
  });

  const primarySummary = accounts.find((choice) => choice.id === primaryAccountId)?.summary;
  const scope = primarySummary
    ? scopeOfAccount(primarySummary)
    : account.data
      ? scopeOfAccount(account.data)
      : profile.access_scope === 'account'
        ? 'account'
        : null;
  const singleSignOn = hasSingleSignOn(account.data?.sign_in_methods);

  const form = useForm(userCreateSchema, {
    request: (values) => ({
      first_name: values.first_name ?? '',
      last_name: values.last_name ?? '',
      email: values.email ?? '',
      user_name: values.user_name ?? '',
      phone: values.phone ?? '',
      locale: values.locale ?? '',
      primary_account_id: values.primary_account_id ?? '',
      account_ids: allValues(formRef.current, 'account_ids').filter((id) => id !== values.primary_account_id),
      role_ids: [...new Set(allValues(formRef.current, 'role_ids'))],
      aliases: aliasesOf(values),
      sign_in: values.sign_in ?? 'standard',
    }),
    refine: (values) => ({
      ...aliasRules(values),
      ...(userNameCheck.isTaken(values.user_name ?? '') ? { user_name: 'inUse' as const } : {}),
    }),
    inUseMessages: USER_IN_USE_MESSAGES,
    onSubmit: async (request) => {
      if (!onlineManager.isOnline()) return;
      try {
        const created = await create.mutateAsync(request);
        const email = created.email;
        notify('success', t`Administrator created. An invitation was sent to ${email}.`);
        void navigate({ to: '/access/administrators/$id', params: { id: created.id } });
      } catch (failure) {
        // A field of another step: open that step, and focus the field once it shows.
        if (failure instanceof ApiError && failure.field) {
          const owner = stepOfField(STEPS, failure.field);
          if (owner !== null && owner !== step) {
            focusAfterStep.current = failure.field;
            setStep(owner);
          }
        }
        throw failure;
      }
    },
  });

  // Opened at a later step (a reload, a shared address): the first step with a fault comes first.
  const checkedOpening = useRef(false);
  useEffect(() => {
    if (checkedOpening.current || !formRef.current) return;
    checkedOpening.current = true;
    const reachable = reachableStep(form, formRef.current, STEPS, step);
    if (reachable !== step) setStep(reachable);
  }, [form, step, setStep]);

  // A new step: focus goes to the field the server named, else to the step's first field, so
  // keyboard and screen-reader users start where the step does.
  const shownStep = useRef(step);
  useEffect(() => {
    const element = formRef.current;
    if (!element) return;
    const field = focusAfterStep.current;
    if (field) {
      focusAfterStep.current = null;
      element.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
    } else if (shownStep.current !== step) {
      element
        .querySelector<HTMLElement>(
          'fieldset:not([hidden]) :is(input:not([type="hidden"]), select, textarea):not(:disabled)',
        )
        ?.focus();
    }
    shownStep.current = step;
  });

  const next = () => {
    const element = formRef.current;
    if (!element) return;
    if (!validateFields(form, element, STEPS[step - 1] ?? [])) return;
    if (step === 1 && userNameCheck.isTaken(String(new FormData(element).get('user_name') ?? ''))) {
      element.querySelector<HTMLElement>('[name="user_name"]')?.focus();
      return;
    }
    if (step === STEPS.length - 1) {
      setReview(Object.fromEntries([...new FormData(element)].map(([k, v]) => [k, String(v)])));
      setChosenNames({
        roles: checkedLabels(element, 'role_ids'),
        accounts: checkedLabels(element, 'account_ids'),
      });
    }
    setStep(step + 1);
  };

  const accountOptions = accounts.map((choice) => ({ value: choice.id, label: choice.name }));
  if (!accountOptions.some((option) => option.value === primaryAccountId)) {
    accountOptions.unshift({ value: primaryAccountId, label: t`The active account` });
  }
  const scopeLabel = scope ? i18n._(SCOPE_LABELS[scope]) : null;
  const manageable = scope === null || mayManageScope(flags, scope);
  const primaryName = accountOptions.find((option) => option.value === primaryAccountId)?.label ?? '';
  const stepLabels = [
    <Trans key="1">Identity</Trans>,
    <Trans key="2">Account</Trans>,
    <Trans key="3">Access</Trans>,
    <Trans key="4">Sign-in and review</Trans>,
  ];

  return (
    <section className="page administrator-form-page" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Create administrator</Trans>
      </PageTitle>
      <StepList step={step} labels={stepLabels} />
      <Form
        form={form}
        ref={formRef}
        className="form administrator-form"
        aria-labelledby="page-title"
        // Enter before the last step goes on to the next step, not to creating.
        onSubmitCapture={(event) => {
          if (step >= STEPS.length) return;
          event.preventDefault();
          event.stopPropagation();
          next();
        }}
      >
        <fieldset hidden={step !== 1} className="administrator-form__step">
          <legend className="administrator-form__legend">
            <Trans>Step 1 of 4: Identity</Trans>
          </legend>
          <PersonFields
            form={form}
            defaults={{
              first_name: '',
              last_name: '',
              email: '',
              user_name: '',
              phone: '',
              locale: DEFAULT_PLATFORM_LOCALE,
            }}
            userNameCheck={userNameCheck}
            emailHint={t`The invitation to choose a password is sent to this address.`}
          />
        </fieldset>
        <fieldset hidden={step !== 2} className="administrator-form__step">
          <legend className="administrator-form__legend">
            <Trans>Step 2 of 4: Account</Trans>
          </legend>
          <SelectField
            label={t`Primary account`}
            {...form.field('primary_account_id')}
            value={primaryAccountId}
            onChange={(event) => setPrimaryAccountId(event.currentTarget.value)}
            options={accountOptions}
            description={accountsStatus}
            required
          />
          <p className="administrator-form__scope" aria-live="polite">
            {scopeLabel ? <Trans>Scope of the new administrator: {scopeLabel}</Trans> : null}
          </p>
          {manageable ? null : (
            <p role="alert" className="field__error">
              <Trans>You cannot create administrators of this scope. Choose another account.</Trans>
            </p>
          )}
          <FurtherAccounts
            form={form}
            accounts={accounts}
            status={accountsStatus}
            primaryAccountId={primaryAccountId}
            selected={new Set()}
          />
        </fieldset>
        <fieldset hidden={step !== 3} className="administrator-form__step">
          <legend className="administrator-form__legend">
            <Trans>Step 3 of 4: Access</Trans>
          </legend>
          {/* A new primary account offers other roles: the choices start again. */}
          <RoleFields
            key={primaryAccountId}
            form={form}
            accountId={primaryAccountId}
            account={account.data}
            profile={profile}
            selected={new Set()}
            scope={scope}
          />
          {scope === 'system' ? <AliasesEditor initial={{}} form={form} /> : null}
        </fieldset>
        <fieldset hidden={step !== 4} className="administrator-form__step">
          <legend className="administrator-form__legend">
            <Trans>Step 4 of 4: Sign-in and review</Trans>
          </legend>
          {singleSignOn ? (
            <fieldset className="role-picker">
              <legend className="role-picker__legend">
                <Trans>How the administrator signs in</Trans>
              </legend>
              <label className="choice">
                <input type="radio" name="sign_in" value="standard" defaultChecked />
                <Trans>With a password: an invitation e-mail lets them choose it</Trans>
              </label>
              <br />
              <label className="choice">
                <input type="radio" name="sign_in" value="single_sign_on" />
                <Trans>With the account's single sign-on</Trans>
              </label>
            </fieldset>
          ) : (
            <p>
              <Trans>The administrator gets an invitation e-mail to choose a password.</Trans>
            </p>
          )}
          <h2 className="administrator-form__legend">
            <Trans>Summary</Trans>
          </h2>
          <dl className="details">
            <DetailsRow label={<Trans>Name</Trans>}>
              {review.first_name} {review.last_name}
            </DetailsRow>
            <DetailsRow label={<Trans>Username</Trans>}>{review.user_name}</DetailsRow>
            <DetailsRow label={<Trans>E-mail</Trans>}>{review.email}</DetailsRow>
            <DetailsRow label={<Trans>Primary account</Trans>}>
              {primaryName}
              {scopeLabel ? ` (${scopeLabel})` : null}
            </DetailsRow>
            <DetailsRow label={<Trans>More accounts</Trans>}>
              {chosenNames.accounts.length === 0 ? <Trans>None</Trans> : chosenNames.accounts.join(', ')}
            </DetailsRow>
            <DetailsRow label={<Trans>Roles</Trans>}>{chosenNames.roles.join(', ')}</DetailsRow>
          </dl>
        </fieldset>
        <div className="form__actions">
          {step > 1 ? (
            <Button variant="secondary" onClick={() => window.history.back()}>
              <Trans>Previous</Trans>
            </Button>
          ) : null}
          {step < STEPS.length ? (
            <Button onClick={next}>
              <Trans>Next</Trans>
            </Button>
          ) : (
            <NeedsConnection>
              {(gate) => (
                <Button {...form.submitProps} {...gate.controlProps}>
                  <Trans>Create administrator</Trans>
                </Button>
              )}
            </NeedsConnection>
          )}
          <Button variant="secondary" onClick={() => void navigate({ to: '/access/administrators' })}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      </Form>
    </section>
  );
}

/**
 * Create administrator (`/create` and `/role-user-create`, one page: decision 039 §3): four steps
 * in one form, the step in the address. Needs MANAGE_USER and a scope's manage permission.
 */
export function AdministratorCreatePage() {
  const flags = usePermissionFlags();
  if (!mayCreateUsers(flags)) return <ForbiddenPage />;
  return <AdministratorCreateForm />;
}
