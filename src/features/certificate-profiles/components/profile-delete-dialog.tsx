import { Trans, useLingui } from '@lingui/react/macro';
import type { CertificateProfile } from '../../../../contract/schemas/certificate-profiles.ts';
import { DeleteItemDialog } from '../../../components/delete-dialog.tsx';
import { useDeleteProfile } from '../mutations.ts';

/**
 * Deletes one profile after typing DELETE, from its details page and from the list's row. Open while
 * `profile` is set; `onDeleted` runs after the notice.
 */
export function ProfileDeleteDialog({
  profile,
  onClose,
  onDeleted,
}: {
  profile: Pick<CertificateProfile, 'id' | 'name' | 'version'> | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const { t } = useLingui();
  return (
    <DeleteItemDialog
      item={profile}
      onClose={onClose}
      onDeleted={onDeleted}
      useDelete={useDeleteProfile}
      warning={
        <Trans>
          No certificate can be issued under this profile any more. Certificates already issued stay valid and
          keep its name.
        </Trans>
      }
      deletedNotice={t`Certificate profile deleted.`}
    />
  );
}
