import { Trans, useLingui } from '@lingui/react/macro';
import type { ServiceUserSummary } from '../../../../contract/schemas/service-users.ts';
import { DeleteItemDialog } from '../../../components/delete-dialog.tsx';
import { useDeleteServiceUser } from '../mutations.ts';

/**
 * Deletes one service user after typing DELETE (decision 039 §5), from its details page and from the
 * list's row. Open while `serviceUser` is set; `onDeleted` runs after the notice.
 */
export function ServiceUserDeleteDialog({
  serviceUser,
  onClose,
  onDeleted,
}: {
  serviceUser: Pick<ServiceUserSummary, 'id' | 'name' | 'version'> | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const { t } = useLingui();
  return (
    <DeleteItemDialog
      item={serviceUser}
      onClose={onClose}
      onDeleted={onDeleted}
      useDelete={useDeleteServiceUser}
      warning={
        <>
          <Trans>The service user and its API tokens are deleted. Scripts using them are refused.</Trans>{' '}
          <Trans>The certificates it owns are revoked.</Trans>
        </>
      }
      deletedNotice={t`Service user deleted.`}
    />
  );
}
