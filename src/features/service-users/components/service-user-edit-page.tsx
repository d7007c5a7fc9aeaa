import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import {
  SERVICE_USER_DESCRIPTION_MAX_LENGTH,
  SERVICE_USER_NAME_MAX_LENGTH,
  type ServiceUser,
  serviceUserUpdateSchema,
} from '../../../../contract/schemas/service-users.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { notify } from '../../../components/notify.ts';
import { PageTitle } from '../../../components/page-title.tsx';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import { isQueued, newIdempotencyKey } from '../../../lib/offline/queueable-request.ts';
import { SERVICE_USER_MANAGE_FLAGS } from '../access.ts';
import { useUpdateServiceUser } from '../mutations.ts';
import { serviceUserKeys, serviceUserQueryOptions } from '../queries.ts';
import { ServiceUserAccessForm } from './service-user-access-form.tsx';
import { endDateOf, endDateRule } from './service-user-fields.ts';

const IN_USE_MESSAGES = { name: msg`A user or service user with this name exists.` };

/**
 * Edit service user (O-09): `/{id}/edit` its name, description, e-mail and end date on the version
 * the form was filled from (If-Match), queueable offline like the other edits;
 * `/{id}/role-service-user-edit` (`withRoles`) the same and its roles below.
 */
export function ServiceUserEditPage({ id, withRoles = false }: { id: string; withRoles?: boolean }) {
  return (
    <RequirePermissions flags={SERVICE_USER_MANAGE_FLAGS}>
      <EditableServiceUser id={id} withRoles={withRoles} />
    </RequirePermissions>
  );
}

function EditableServiceUser({ id, withRoles }: { id: string; withRoles: boolean }) {
  const { data, dataUpdatedAt } = useSuspenseQuery(serviceUserQueryOptions(id));
  return (
    <>
      <CachedDataNotice updatedAt={dataUpdatedAt} />
      {/* A new version (reloaded after a conflict) starts the forms again from it. */}
      <EditForm key={data.version} loaded={data}>
        {withRoles ? <ServiceUserAccessForm serviceUser={data} /> : null}
      </EditForm>
    </>
  );
}

function EditForm({ loaded, children }: { loaded: ServiceUser; children?: ReactNode }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [serviceUser] = useState(loaded);
  const update = useUpdateServiceUser(serviceUser);
  const name = serviceUser.name;
  const base = {
    name: serviceUser.name,
    description: serviceUser.description,
    email: serviceUser.email,
    end_date: serviceUser.end_date,
  };
  const form = useForm(serviceUserUpdateSchema, {
    request: (values) => ({
      name: values.name ?? '',
      description: values.description ?? '',
      email: values.email ?? '',
      end_date: endDateOf(values),
    }),
    refine: endDateRule(serviceUser.end_date),
    inUseMessages: IN_USE_MESSAGES,
    onSubmit: async (request) => {
      const result = await update.mutateAsync({
        update: request,
        version: serviceUser.version,
        base,
        idempotencyKey: newIdempotencyKey(),
      });
      notify(
        isQueued(result) ? 'info' : 'success',
        isQueued(result)
          ? t`Saved on this device. The change is sent when the connection returns.`
          : t`Service user updated.`,
      );
      void navigate({ to: '/access/service-user/$id', params: { id: serviceUser.id } });
    },
  });
  return (
    <section className="page" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Edit service user: {name}</Trans>
      </PageTitle>
      <Form
        form={form}
        className="service-user-form"
        onReload={() =>
          void queryClient.invalidateQueries({
            queryKey: serviceUserKeys.detail(serviceUser.id),
            exact: true,
          })
        }
      >
        <TextField
          label={t`Name`}
          description={t`Letters, digits, spaces, dashes and underscores.`}
          {...form.field('name')}
          defaultValue={serviceUser.name}
          required
          autoComplete="off"
          maxLength={SERVICE_USER_NAME_MAX_LENGTH}
        />
        <TextAreaField
          label={t`Description`}
          {...form.field('description')}
          defaultValue={serviceUser.description}
          rows={3}
          maxLength={SERVICE_USER_DESCRIPTION_MAX_LENGTH}
        />
        <TextField
          label={t`Responsible person’s e-mail`}
          description={t`Who answers for this service user. No mail is sent there.`}
          type="email"
          {...form.field('email')}
          defaultValue={serviceUser.email}
          required
          autoComplete="off"
        />
        <TextField
          label={t`End date`}
          description={t`Its API tokens stop after this day (UTC). Leave empty for none.`}
          type="date"
          {...form.field('end_date')}
          defaultValue={serviceUser.end_date ?? ''}
        />
        <div className="service-user-form__actions">
          <Button {...form.submitProps}>
            <Trans>Save</Trans>
          </Button>
          <Link
            to="/access/service-user/$id"
            params={{ id: serviceUser.id }}
            className="button button--secondary"
          >
            <Trans>Cancel</Trans>
          </Link>
        </div>
      </Form>
      {children}
    </section>
  );
}
