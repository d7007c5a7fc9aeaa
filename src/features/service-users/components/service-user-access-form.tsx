import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useRef } from 'react';
import type { ServiceUser } from '../../../../contract/schemas/service-users.ts';
import { userAccessSchema } from '../../../../contract/schemas/users.ts';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { RolePicker } from '../../../components/role-picker.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { useForm } from '../../../lib/form/use-form.ts';
import { useChangeServiceUserAccess } from '../mutations.ts';
import { roleChoicesQueryOptions } from '../queries.ts';
import { checkedValues, roleChoices } from './role-choices.ts';

/**
 * A service user's roles (O-09 `/{id}/role-service-user-edit`; decision 039 §5): the roles of its
 * primary account's applications, its accounts beyond the primary one kept as they are. A role it
 * holds that the caller could not grant anew stays held (the picker keeps it).
 */
export function ServiceUserAccessForm({ serviceUser }: { serviceUser: ServiceUser }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const viewer = useProfile();
  const change = useChangeServiceUserAccess(serviceUser.id);
  const roles = useQuery(roleChoicesQueryOptions(serviceUser.primary_account.id));
  const holds = new Set(serviceUser.roles.map((role) => role.id));
  const formRef = useRef<HTMLFormElement>(null);
  const held = new Set(viewer.permissions.map((permission) => permission.name));
  const accountIds = serviceUser.accounts
    .map((account) => account.id)
    .filter((id) => id !== serviceUser.primary_account.id);

  const form = useForm(userAccessSchema, {
    request: () => ({
      account_ids: accountIds,
      role_ids: [...new Set(checkedValues(formRef.current, 'role_ids'))],
    }),
    onSubmit: async (access) => {
      await change.mutateAsync({ access, version: serviceUser.version });
      notify('success', t`Service user updated.`);
      void navigate({ to: '/access/service-user/$id', params: { id: serviceUser.id } });
    },
  });
  return (
    <section aria-labelledby="access-title">
      <h2 id="access-title">
        <Trans>Roles</Trans>
      </h2>
      <Form form={form} className="service-user-form" ref={formRef}>
        <QueryStatus query={roles} pendingText={<Trans>Loading roles…</Trans>}>
          {({ items }) => {
            const { choices, applications } = roleChoices(items, held, i18n);
            return (
              <RolePicker
                legend={t`Roles per application`}
                name="role_ids"
                applications={applications}
                roles={choices}
                selected={holds}
                error={form.errorOf('role_ids')}
              />
            );
          }}
        </QueryStatus>
        <div className="service-user-form__actions">
          <NeedsConnection>
            {(gate) => (
              <Button {...form.submitProps} {...gate.controlProps}>
                <Trans>Save roles</Trans>
              </Button>
            )}
          </NeedsConnection>
        </div>
      </Form>
    </section>
  );
}
