import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import {
  DEFAULT_SERVICE_USER_TOKEN_NAME,
  SERVICE_USER_DESCRIPTION_MAX_LENGTH,
  SERVICE_USER_NAME_MAX_LENGTH,
  type ServiceUserCreated,
  serviceUserCreateSchema,
} from '../../../../contract/schemas/service-users.ts';
import { CreatedToken } from '../../../components/created-token.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { notify } from '../../../components/notify.ts';
import { PageTitle } from '../../../components/page-title.tsx';
import { RolePicker } from '../../../components/role-picker.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { accountChoicesQueryOptions } from '../../../lib/account-choices.ts';
import { useProfile } from '../../../lib/current-user.ts';
import { useForm } from '../../../lib/form/use-form.ts';
import { useCreateServiceUser } from '../mutations.ts';
import { roleChoicesQueryOptions } from '../queries.ts';
import { checkedValues, roleChoices } from './role-choices.ts';
import { endDateOf, endDateRule } from './service-user-fields.ts';

const IN_USE_MESSAGES = { name: msg`A user or service user with this name exists.` };

/**
 * Create service user (O-08; decision 039 §5), the page of both `/create` and
 * `/role-service-user-create`: its details, its account and roles, and the name of its first token.
 * Once made, its token is shown this once with Copy; the value lives in this page's state only.
 */
export function ServiceUserCreatePage() {
  const [created, setCreated] = useState<ServiceUserCreated | null>(null);
  const navigate = useNavigate();
  if (created) {
    const id = created.service_user.id;
    const name = created.service_user.name;
    return (
      <section className="page service-user-form" aria-labelledby="page-title">
        <PageTitle>
          <Trans>Service user {name} created</Trans>
        </PageTitle>
        <CreatedToken
          name={created.api_token.name}
          value={created.api_token.value}
          doneLabel={<Trans>Go to the service user</Trans>}
          onDone={() => void navigate({ to: '/access/service-user/$id', params: { id } })}
        />
      </section>
    );
  }
  return <CreateForm onCreated={setCreated} />;
}

function CreateForm({ onCreated }: { onCreated: (created: ServiceUserCreated) => void }) {
  const { t, i18n } = useLingui();
  const viewer = useProfile();
  const create = useCreateServiceUser();
  const otherAccounts = viewer.access_scope !== 'account';
  const accounts = useQuery({ ...accountChoicesQueryOptions(), enabled: otherAccounts });
  const [accountId, setAccountId] = useState(viewer.primary_account_id);
  const roles = useQuery(roleChoicesQueryOptions(accountId));
  const formRef = useRef<HTMLFormElement>(null);
  const held = new Set(viewer.permissions.map((permission) => permission.name));

  const form = useForm(serviceUserCreateSchema, {
    request: (values) => ({
      name: values.name ?? '',
      description: values.description ?? '',
      email: values.email ?? '',
      end_date: endDateOf(values),
      primary_account_id: accountId,
      role_ids: [...new Set(checkedValues(formRef.current, 'role_ids'))],
      ...(values.token_name?.trim() ? { token_name: values.token_name } : {}),
    }),
    refine: endDateRule(null),
    inUseMessages: IN_USE_MESSAGES,
    onSubmit: async (request) => {
      const answer = await create.mutateAsync(request);
      notify('success', t`Service user created.`);
      onCreated(answer);
    },
  });

  const ownAccount = viewer.accounts.find((account) => account.id === viewer.primary_account_id);
  const accountOptions = [
    ...(ownAccount ? [{ value: ownAccount.id, label: ownAccount.display_name }] : []),
    ...(accounts.data?.items ?? [])
      .filter((account) => account.id !== viewer.primary_account_id)
      .map((account) => ({ value: account.id, label: account.name })),
  ];

  return (
    <section className="page" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Create service user</Trans>
      </PageTitle>
      <Form form={form} className="service-user-form" ref={formRef}>
        <TextField
          label={t`Name`}
          description={t`Letters, digits, spaces, dashes and underscores.`}
          {...form.field('name')}
          required
          autoComplete="off"
          maxLength={SERVICE_USER_NAME_MAX_LENGTH}
        />
        <TextAreaField
          label={t`Description`}
          {...form.field('description')}
          rows={3}
          maxLength={SERVICE_USER_DESCRIPTION_MAX_LENGTH}
        />
        <TextField
          label={t`Responsible person’s e-mail`}
          description={t`Who answers for this service user. No mail is sent there.`}
          type="email"
          {...form.field('email')}
          required
          autoComplete="off"
        />
        <TextField
          label={t`End date`}
          description={t`Its API tokens stop after this day (UTC). Leave empty for none.`}
          type="date"
          {...form.field('end_date')}
        />
        {otherAccounts ? (
          <SelectField
            label={t`Account`}
            {...form.field('primary_account_id')}
            value={accountId}
            options={accountOptions}
            required
            onChange={(event) => {
              setAccountId(event.target.value);
            }}
          />
        ) : null}
        <QueryStatus query={roles} pendingText={<Trans>Loading roles…</Trans>}>
          {({ items }) => {
            const { choices, applications } = roleChoices(items, held, i18n);
            return (
              <RolePicker
                legend={t`Roles per application`}
                name="role_ids"
                applications={applications}
                roles={choices}
                selected={new Set()}
                error={form.errorOf('role_ids')}
              />
            );
          }}
        </QueryStatus>
        <TextField
          label={t`First API token’s name`}
          {...form.field('token_name')}
          placeholder={DEFAULT_SERVICE_USER_TOKEN_NAME}
          autoComplete="off"
          maxLength={100}
        />
        <div className="service-user-form__actions">
          <Button {...form.submitProps}>
            <Trans>Create</Trans>
          </Button>
          <Link to="/access/service-user" className="button button--secondary">
            <Trans>Cancel</Trans>
          </Link>
        </div>
      </Form>
    </section>
  );
}
