import { Trans, useLingui } from '@lingui/react/macro';
import type { ServiceUserSummary } from '../../../../contract/schemas/service-users.ts';
import { TypeToConfirmDialog } from '../../../components/ui/dialog.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useDeleteServiceUser } from '../mutations.ts';

type Deletable = Pick<ServiceUserSummary, 'id' | 'name' | 'version'>;

/**
 * Deletes one service user after typing DELETE (decision 018 §8.5), from its details page and from the
 * list's row. Open while `serviceUser` is set; `onDeleted` runs after the notice.
 */
export function ServiceUserDeleteDialog({
  serviceUser,
  onClose,
  onDeleted,
}: {
  serviceUser: Deletable | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  return serviceUser ? (
    <DeleteDialog key={serviceUser.id} serviceUser={serviceUser} onClose={onClose} onDeleted={onDeleted} />
  ) : null;
}

function DeleteDialog({
  serviceUser,
  onClose,
  onDeleted,
}: {
  serviceUser: Deletable;
  onClose: () => void;
  onDeleted: (() => void) | undefined;
}) {
  const { t } = useLingui();
  const remove = useDeleteServiceUser(serviceUser.id);
  const name = serviceUser.name;
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <TypeToConfirmDialog
      open
      onOpenChange={(next) => (next ? undefined : close())}
      title={<Trans>Delete {name}?</Trans>}
      warning={
        <>
          <Trans>The service user and its API tokens are deleted. Scripts using them are refused.</Trans>{' '}
          <Trans>The certificates it owns are revoked.</Trans>
        </>
      }
      inputLabel={t`Type DELETE to confirm`}
      expected="DELETE"
      maxLength={6}
      confirmLabel={<Trans>Delete</Trans>}
      cancelLabel={<Trans>Cancel</Trans>}
      pending={remove.isPending}
      error={remove.error ? <FormErrorAlert error={remove.error} /> : null}
      onConfirm={() =>
        remove.mutate(serviceUser.version, {
          onSuccess: () => {
            showToast('success', t`Service user deleted.`);
            onClose();
            onDeleted?.();
          },
        })
      }
    />
  );
}
