import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { TypeDeleteDialog } from '../../../components/delete-dialog.tsx';
import { notify, notifyError } from '../../../components/notify.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { Menu, type MenuEntry } from '../../../components/ui/menu.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { useOnline } from '../../../lib/offline/online.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { type UserAction, useUserAction } from '../mutations.ts';
import { userKeys } from '../queries.ts';
import { type ActionTarget, type RefusalReason, type UserActionName, userActions } from '../rules.ts';

/** The word typed to confirm deleting administrators. */

const ACTION_LABELS: Readonly<Record<UserActionName, MessageDescriptor>> = {
  view: msg`View`,
  edit: msg`Edit`,
  editRoles: msg`Edit roles`,
  enable: msg`Enable`,
  disable: msg`Disable`,
  verification: msg`Resend verification link`,
  passwordReset: msg`Send password reset`,
  mfa: msg`Reset two-factor authentication`,
  unlock: msg`Unlock two-factor authentication`,
  standardLogin: msg`Send standard sign-in invitation`,
  ssoEmail: msg`Resend single sign-on e-mail`,
  delete: msg`Delete`,
};

export const REFUSAL_TEXTS: Readonly<Record<RefusalReason, MessageDescriptor>> = {
  oneself: msg`You cannot do this to yourself.`,
  permission: msg`You may not change administrators of this scope.`,
  stronger: msg`This administrator holds permissions you do not hold.`,
  status: msg`Two-factor authentication is not set up.`,
};

/** The success notices of account administration §8, one per action. */
const NOTICES: Readonly<Record<UserAction['kind'], MessageDescriptor>> = {
  enable: msg`Administrator updated.`,
  verification: msg`Verification link resent.`,
  passwordReset: msg`Password reset e-mail sent.`,
  mfa: msg`Two-factor authentication reset; a set-up e-mail was sent.`,
  standardLogin: msg`Standard sign-in invitation sent.`,
  ssoEmail: msg`Single sign-on e-mail sent.`,
  delete: msg`Administrator deleted.`,
  defaultApplication: msg`Default application updated.`,
};

export interface ActionUser extends ActionTarget {
  first_name: string;
  last_name: string;
  version: number;
}

interface AdministratorActionsProps {
  user: ActionUser;
  /** G4 as far as the page knows it. */
  stronger: boolean;
  /** The details page leaves View out, since it is the page shown. */
  onDetails?: boolean;
  /** After deleting: the details page leaves for the list. */
  onDeleted?: () => void;
}

/**
 * The actions on one administrator as a menu (the list's rows and the details page, decision 039
 * §4): each offered by the rules of decision 018 §3, shown disabled with the reason when refused; destructive
 * ones confirmed in a dialog. Every one needs a connection.
 */
export function AdministratorActions({
  user,
  stronger,
  onDetails = false,
  onDeleted,
}: AdministratorActionsProps) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const profile = useProfile();
  const flags = usePermissionFlags();
  const featureFlags = useFeatureFlags();
  const online = useOnline();
  const action = useUserAction(user.id);
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'disable' | 'delete' | 'mfa' | null>(null);
  const name = `${user.first_name} ${user.last_name}`;
  const own = user.id === profile.id;

  const run = (request: UserAction, after?: () => void) => {
    if (action.isPending) return;
    action.mutate(request, {
      onSuccess: () => {
        const notice =
          request.kind === 'enable'
            ? request.enabled
              ? t`Administrator enabled.`
              : t`Administrator disabled.`
            : request.kind === 'mfa' && user.mfa?.locked
              ? t`Unlock e-mail sent.`
              : i18n._(NOTICES[request.kind]);
        notify('success', notice);
        setDialog(null);
        after?.();
      },
      // Dialogs show their failure in place; the one-click mails as a notice.
      onError: (error) => {
        if (request.kind !== 'delete' && request.kind !== 'enable' && request.kind !== 'mfa')
          notifyError(error);
      },
    });
  };

  const choose = (value: string) => {
    switch (value as UserActionName) {
      case 'view':
        void navigate({ to: '/access/administrators/$id', params: { id: user.id } });
        return;
      case 'edit':
        if (own) void navigate({ to: '/profile/edit' });
        else if (featureFlags.roles)
          void navigate({ to: '/access/administrators/$id/role-user-edit', params: { id: user.id } });
        else void navigate({ to: '/access/administrators/$id/edit', params: { id: user.id } });
        return;
      case 'editRoles':
        void navigate({ to: '/access/administrators/$id/role-edit', params: { id: user.id } });
        return;
      case 'enable':
        run({ kind: 'enable', enabled: true, version: user.version });
        return;
      case 'disable':
        setDialog('disable');
        return;
      case 'mfa':
      case 'unlock':
        setDialog('mfa');
        return;
      case 'delete':
        setDialog('delete');
        return;
      case 'verification':
        run({ kind: 'verification' });
        return;
      case 'passwordReset':
        run({ kind: 'passwordReset' });
        return;
      case 'standardLogin':
        run({ kind: 'standardLogin' });
        return;
      case 'ssoEmail':
        run({ kind: 'ssoEmail' });
        return;
    }
  };

  const entries: MenuEntry[] = userActions(user, profile, flags, stronger)
    // One's own page offers no status, role or delete action at all (decision 039 §4).
    .filter((entry) => !(onDetails && (entry.name === 'view' || entry.refusal === 'oneself')))
    .map((entry) => {
      // Changes need the server; viewing and opening the edit pages do not.
      const offline = !online && !['view', 'edit', 'editRoles'].includes(entry.name);
      const refusal = entry.refusal
        ? i18n._(REFUSAL_TEXTS[entry.refusal])
        : offline
          ? t`Needs a connection`
          : null;
      return {
        value: entry.name,
        label: i18n._(ACTION_LABELS[entry.name]),
        disabled: refusal !== null,
        ...(refusal ? { description: refusal } : {}),
      };
    });

  const closeDialog = (open: boolean) => {
    if (!open) {
      action.reset();
      setDialog(null);
    }
  };
  // After a 412 (the user changed since the page read it): the current version, then try again.
  const reload = () => {
    closeDialog(false);
    void queryClient.invalidateQueries({ queryKey: userKeys.all() });
  };

  return (
    <>
      <Menu
        trigger={onDetails ? <Trans>Actions</Trans> : <span aria-hidden="true">⋯</span>}
        triggerLabel={onDetails ? undefined : t`Actions for ${name}`}
        sections={[{ id: 'actions', entries }]}
        onSelect={choose}
      />
      <Dialog
        open={dialog === 'disable' || dialog === 'mfa'}
        onOpenChange={closeDialog}
        role="alertdialog"
        title={
          dialog === 'disable' ? (
            <Trans>Disable administrator</Trans>
          ) : user.mfa?.locked ? (
            <Trans>Unlock two-factor authentication</Trans>
          ) : (
            <Trans>Reset two-factor authentication</Trans>
          )
        }
        description={
          dialog === 'disable' ? (
            <Trans>{name} is signed out at once and cannot sign in until enabled again.</Trans>
          ) : user.mfa?.locked ? (
            <Trans>{name} gets an e-mail to unlock their two-factor authentication.</Trans>
          ) : (
            <Trans>
              The two-factor authentication of {name} is cleared; they get an e-mail to set it up again.
            </Trans>
          )
        }
      >
        {action.error ? <FormErrorAlert error={action.error} onReload={reload} /> : null}
        <div className="dialog__actions">
          <Button variant="secondary" onClick={() => closeDialog(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            className="button--danger"
            busy={action.isPending}
            onClick={() =>
              run(
                dialog === 'disable'
                  ? { kind: 'enable', enabled: false, version: user.version }
                  : { kind: 'mfa' },
              )
            }
          >
            {dialog === 'disable' ? (
              <Trans>Disable</Trans>
            ) : user.mfa?.locked ? (
              <Trans>Unlock</Trans>
            ) : (
              <Trans>Reset</Trans>
            )}
          </Button>
        </div>
      </Dialog>
      <TypeDeleteDialog
        open={dialog === 'delete'}
        onOpenChange={closeDialog}
        title={<Trans>Delete administrator</Trans>}
        warning={
          <>
            <Trans>{name} will be deleted. This cannot be undone.</Trans>{' '}
            <Trans>The certificates they own are revoked.</Trans>
          </>
        }
        confirmLabel={<Trans>Delete administrator</Trans>}
        pending={action.isPending}
        error={action.error ? <FormErrorAlert error={action.error} onReload={reload} /> : null}
        onConfirm={() => run({ kind: 'delete', version: user.version }, onDeleted)}
      />
    </>
  );
}
