import { Trans, useLingui } from '@lingui/react/macro';
import type { ServiceUserSummary } from '../../../../contract/schemas/service-users.ts';
import { notify } from '../../../components/notify.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { useEnableServiceUser } from '../mutations.ts';

/**
 * Enable or disable one service user after a confirmation (O-38, O-39). Disabling stops its tokens
 * on their next call; enabling brings them back. Open while `serviceUser` is set.
 */
export function ServiceUserStatusDialog({
  serviceUser,
  onClose,
}: {
  serviceUser: Pick<ServiceUserSummary, 'id' | 'name' | 'status' | 'version'> | null;
  onClose: () => void;
}) {
  return serviceUser ? (
    <StatusDialog key={serviceUser.id} serviceUser={serviceUser} onClose={onClose} />
  ) : null;
}

function StatusDialog({
  serviceUser,
  onClose,
}: {
  serviceUser: Pick<ServiceUserSummary, 'id' | 'name' | 'status' | 'version'>;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const change = useEnableServiceUser(serviceUser.id);
  const enabling = serviceUser.status === 'disabled';
  const name = serviceUser.name;
  const close = () => {
    change.reset();
    onClose();
  };
  const confirm = () => {
    if (change.isPending) return;
    change.mutate(
      { enabled: enabling, version: serviceUser.version },
      {
        onSuccess: () => {
          notify('success', enabling ? t`Service user enabled.` : t`Service user disabled.`);
          close();
        },
      },
    );
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : close())}
      role="alertdialog"
      title={enabling ? <Trans>Enable {name}?</Trans> : <Trans>Disable {name}?</Trans>}
      description={
        enabling ? (
          <Trans>Its API tokens work again from their next call.</Trans>
        ) : (
          <Trans>Its API tokens are refused from their next call until it is enabled again.</Trans>
        )
      }
    >
      <div className="dialog__form">
        {change.error ? <FormErrorAlert error={change.error} /> : null}
        <div className="dialog__actions">
          <Button variant="secondary" onClick={close}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            className={enabling ? undefined : 'button--danger'}
            busy={change.isPending}
            onClick={confirm}
          >
            {enabling ? <Trans>Enable</Trans> : <Trans>Disable</Trans>}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
