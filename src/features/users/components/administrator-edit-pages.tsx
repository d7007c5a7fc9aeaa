import { Trans, useLingui } from '@lingui/react/macro';
import { onlineManager, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import * as v from 'valibot';
import {
  type User,
  type UserAccess,
  type UserUpdate,
  userAccessSchema,
  userUpdateSchema,
} from '../../../../contract/schemas/users.ts';
import { AliasesEditor, aliasesOf, aliasRules } from '../../../components/aliases-editor.tsx';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { ForbiddenPage } from '../../../components/forbidden-page.tsx';
import { MessagePage } from '../../../components/message-page.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useProfile } from '../../../lib/current-user.ts';
import { type StepFields, stepOfField, validateFields } from '../../../lib/form/steps.ts';
import { type FormValues, useForm } from '../../../lib/form/use-form.ts';
import { isQueued, newIdempotencyKey } from '../../../lib/offline/queueable-request.ts';
import { usePageStep } from '../../../lib/page-mode.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { useUpdateUser, useUpdateUserAccess } from '../mutations.ts';
import { userAccountQueryOptions, userKeys, userQueryOptions } from '../queries.ts';
import { heldPermissions, isStronger, mayManageScope } from '../rules.ts';
import {
  allValues,
  FurtherAccounts,
  PERSON_FIELDS,
  PersonFields,
  RoleFields,
  USER_IN_USE_MESSAGES,
  useAccountChoices,
  useUserNameCheck,
} from './user-form-fields.tsx';
import './administrator-forms.css';

/** Which of the edit pages (decision 039 §3): the person's fields, their access, or both in two steps. */
export type EditMode = 'fields' | 'access' | 'both';

const STEPS: StepFields = [
  [...PERSON_FIELDS, 'alias.'],
  ['account_ids', 'role_ids'],
];

/** The person's fields as the form shows them before any change, in the shape of PUT user/{id}. */
function updateBase(user: User): UserUpdate {
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    user_name: user.user_name,
    email: user.email,
    phone: user.phone ?? '',
    locale: user.locale as UserUpdate['locale'],
    ...(user.access_scope === 'system' ? { aliases: user.aliases } : {}),
  };
}

/** The person's fields as typed; aliases only for a system-scope user, whose form has them. */
function personRequest(values: FormValues, withAliases: boolean) {
  return {
    first_name: values.first_name ?? '',
    last_name: values.last_name ?? '',
    user_name: values.user_name ?? '',
    email: values.email ?? '',
    phone: values.phone ?? '',
    locale: values.locale ?? '',
    ...(withAliases ? { aliases: aliasesOf(values) } : {}),
  };
}

function accessRequest(form: HTMLFormElement | null, primaryAccountId: string) {
  return {
    account_ids: allValues(form, 'account_ids').filter((id) => id !== primaryAccountId),
    role_ids: [...new Set(allValues(form, 'role_ids'))],
  };
}

/** Both steps in one flat request, so every issue and server field names an input as it is. */
const bothSchema = v.object({ ...userUpdateSchema.entries, ...userAccessSchema.entries });

function EditForm({ loaded, mode }: { loaded: User; mode: EditMode }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useProfile();
  // The user as the form opened: its version is what the change is based on.
  const [user] = useState(loaded);
  const [step, setStep] = usePageStep();
  const formRef = useRef<HTMLFormElement>(null);
  const update = useUpdateUser(user);
  const access = useUpdateUserAccess(user.id);
  const userNameCheck = useUserNameCheck(user.user_name);
  const account = useQuery(userAccountQueryOptions(user.primary_account_id));
  const { accounts, status: accountsStatus } = useAccountChoices(profile);
  const steps = mode === 'both';
  const editsPerson = mode !== 'access';
  const editsAccess = mode !== 'fields';
  const name = `${user.first_name} ${user.last_name}`;
  const systemScope = user.access_scope === 'system';

  const saveAccess = async (request: UserAccess, version: number) => {
    await access.mutateAsync({ access: request, version });
  };
  const savePerson = async (request: UserUpdate) => {
    const result = await update.mutateAsync({
      update: request,
      version: user.version,
      base: updateBase(user),
      idempotencyKey: newIdempotencyKey(),
    });
    return result;
  };
  const done = (notice: string) => {
    notify('success', notice);
    // The form's entry is replaced: Back from the details does not reopen a finished form.
    void navigate({ to: '/access/administrators/$id', params: { id: user.id }, replace: true });
  };

  const schema = mode === 'both' ? bothSchema : mode === 'access' ? userAccessSchema : userUpdateSchema;
  const form = useForm(schema, {
    request: (values) => {
      if (mode === 'fields') return personRequest(values, systemScope);
      if (mode === 'access') return accessRequest(formRef.current, user.primary_account_id);
      return {
        ...personRequest(values, systemScope),
        ...accessRequest(formRef.current, user.primary_account_id),
      };
    },
    refine: (values) => ({
      ...(editsPerson && systemScope ? aliasRules(values) : {}),
      ...(editsPerson && userNameCheck.isTaken(values.user_name ?? '')
        ? { user_name: 'inUse' as const }
        : {}),
    }),
    inUseMessages: USER_IN_USE_MESSAGES,
    onSubmit: async (parsed) => {
      if (mode === 'fields') {
        const result = await savePerson(parsed as UserUpdate);
        done(
          isQueued(result)
            ? t`Saved on this device. The change is sent when the connection returns.`
            : t`Administrator updated.`,
        );
        return;
      }
      if (!onlineManager.isOnline()) return;
      if (mode === 'access') {
        await saveAccess(parsed as UserAccess, user.version);
        done(t`Permissions edited.`);
        return;
      }
      const { account_ids, role_ids, ...person } = parsed as v.InferOutput<typeof bothSchema>;
      try {
        await savePerson(person);
      } catch (failure) {
        if (failure instanceof ApiError && failure.field) setStep(stepOfField(STEPS, failure.field) ?? step);
        throw failure;
      }
      // The access change applies to the version the fields' change made.
      const saved = await queryClient.fetchQuery({ ...userQueryOptions(user.id), staleTime: 0 });
      await saveAccess({ account_ids, role_ids }, saved.version);
      done(t`Administrator updated. Permissions edited.`);
    },
  });
  const next = () => {
    const element = formRef.current;
    if (!element) return;
    if (!validateFields(form, element, STEPS[0] ?? [])) return;
    if (userNameCheck.isTaken(String(new FormData(element).get('user_name') ?? ''))) return;
    setStep(2);
  };

  const title =
    mode === 'access' ? <Trans>Edit roles: {name}</Trans> : <Trans>Edit administrator: {name}</Trans>;
  const personFields = (
    <>
      <PersonFields
        form={form}
        defaults={{ ...updateBase(user), phone: user.phone ?? '' }}
        userNameCheck={userNameCheck}
        emailHint={t`A changed address gets a confirmation link; until it is confirmed the e-mail shows as not verified.`}
      />
      {systemScope ? <AliasesEditor initial={user.aliases} form={form} /> : null}
    </>
  );
  const accessFields = (
    <>
      <FurtherAccounts
        form={form}
        accounts={accounts}
        status={accountsStatus}
        primaryAccountId={user.primary_account_id}
        selected={
          new Set(user.accounts.map((item) => item.id).filter((id) => id !== user.primary_account_id))
        }
      />
      <RoleFields
        form={form}
        accountId={user.primary_account_id}
        account={account.data}
        profile={profile}
        selected={new Set(user.roles.map((role) => role.id))}
        scope={user.access_scope}
      />
    </>
  );
  const submitLabel = <Trans>Save</Trans>;
  const currentStep = steps ? Math.min(step, 2) : 1;

  return (
    <section className="page administrator-form-page" aria-labelledby="page-title">
      <PageTitle>{title}</PageTitle>
      <Form
        form={form}
        ref={formRef}
        className="form administrator-form"
        aria-labelledby="page-title"
        onReload={() =>
          void queryClient.invalidateQueries({ queryKey: userKeys.detail(user.id), exact: true })
        }
        onSubmitCapture={(event) => {
          if (!steps || currentStep === 2) return;
          event.preventDefault();
          event.stopPropagation();
          next();
        }}
      >
        {steps ? (
          <>
            <fieldset hidden={currentStep !== 1} className="administrator-form__step">
              <legend className="administrator-form__legend">
                <Trans>Step 1 of 2: Person</Trans>
              </legend>
              {personFields}
            </fieldset>
            <fieldset hidden={currentStep !== 2} className="administrator-form__step">
              <legend className="administrator-form__legend">
                <Trans>Step 2 of 2: Accounts and roles</Trans>
              </legend>
              {accessFields}
            </fieldset>
          </>
        ) : editsPerson ? (
          personFields
        ) : (
          accessFields
        )}
        <div className="form__actions">
          {steps && currentStep === 2 ? (
            <Button variant="secondary" onClick={() => window.history.back()}>
              <Trans>Previous</Trans>
            </Button>
          ) : null}
          {steps && currentStep === 1 ? (
            <Button onClick={next}>
              <Trans>Next</Trans>
            </Button>
          ) : editsAccess ? (
            <NeedsConnection>
              {(gate) => (
                <Button {...form.submitProps} {...gate.controlProps}>
                  {submitLabel}
                </Button>
              )}
            </NeedsConnection>
          ) : (
            <Button {...form.submitProps}>{submitLabel}</Button>
          )}
          <Link to="/access/administrators/$id" params={{ id: user.id }} className="button button--secondary">
            <Trans>Cancel</Trans>
          </Link>
        </div>
      </Form>
    </section>
  );
}

/** Why this caller may not use an edit page on this user, or null. */
function useRefusal(user: User, mode: EditMode): 'oneself' | 'permission' | 'stronger' | null {
  const profile = useProfile();
  const flags = usePermissionFlags();
  const own = user.id === profile.id;
  if (own && mode !== 'fields') return 'oneself';
  if (own) return null;
  if (!mayManageScope(flags, user.access_scope)) return 'permission';
  const stronger = isStronger(
    user.permissions.map((permission) => permission.name),
    heldPermissions(profile),
  );
  return stronger ? 'stronger' : null;
}

function EditableUser({ userId, mode }: { userId: string; mode: EditMode }) {
  const { data: user, dataUpdatedAt } = useSuspenseQuery(userQueryOptions(userId));
  const refusal = useRefusal(user, mode);
  const profile = useProfile();
  if (refusal === 'permission') return <ForbiddenPage />;
  if (refusal !== null) {
    return (
      <MessagePage
        title={
          refusal === 'oneself' ? (
            <Trans>You cannot change your own roles</Trans>
          ) : (
            <Trans>You cannot edit this administrator</Trans>
          )
        }
      >
        <p>
          {refusal === 'oneself' ? (
            <Trans>Another administrator can change your accounts and roles.</Trans>
          ) : (
            <Trans>
              This administrator holds permissions you do not hold, so only someone who holds them can make
              changes.
            </Trans>
          )}
        </p>
        <p>
          <Link to="/access/administrators/$id" params={{ id: userId }}>
            <Trans>Go to the administrator</Trans>
          </Link>
        </p>
      </MessagePage>
    );
  }
  if (user.id === profile.id) {
    return (
      <MessagePage title={<Trans>Edit your own details on your profile</Trans>}>
        <p>
          <Link to="/profile/edit">
            <Trans>Go to your profile</Trans>
          </Link>
        </p>
      </MessagePage>
    );
  }
  return (
    <>
      <CachedDataNotice updatedAt={dataUpdatedAt} />
      {/* A newer version (reloaded after a conflict) starts the form again from it. */}
      <EditForm key={user.version} loaded={user} mode={mode} />
    </>
  );
}

/** `/{id}/edit`, `/{id}/role-edit` and `/{id}/role-user-edit` (decision 039 §4). */
export function AdministratorEditPage({ userId, mode }: { userId: string; mode: EditMode }) {
  return <EditableUser userId={userId} mode={mode} />;
}
