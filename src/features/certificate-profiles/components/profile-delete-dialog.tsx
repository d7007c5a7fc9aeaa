import { Trans, useLingui } from '@lingui/react/macro';
import type { CertificateProfile } from '../../../../contract/schemas/certificate-profiles.ts';
import { TypeToConfirmDialog } from '../../../components/ui/dialog.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useDeleteProfile } from '../mutations.ts';

type Deletable = Pick<CertificateProfile, 'id' | 'name' | 'version'>;

/**
 * Deletes one profile after typing DELETE, from its details page and from the list's row. Open while
 * `profile` is set; `onDeleted` runs after the notice.
 */
export function ProfileDeleteDialog({
  profile,
  onClose,
  onDeleted,
}: {
  profile: Deletable | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  return profile ? (
    <DeleteDialog key={profile.id} profile={profile} onClose={onClose} onDeleted={onDeleted} />
  ) : null;
}

function DeleteDialog({
  profile,
  onClose,
  onDeleted,
}: {
  profile: Deletable;
  onClose: () => void;
  onDeleted: (() => void) | undefined;
}) {
  const { t } = useLingui();
  const remove = useDeleteProfile(profile.id);
  const name = profile.name;
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
        <Trans>
          No certificate can be issued under this profile any more. Certificates already issued stay valid and
          keep its name.
        </Trans>
      }
      inputLabel={t`Type DELETE to confirm`}
      expected="DELETE"
      maxLength={6}
      confirmLabel={<Trans>Delete</Trans>}
      cancelLabel={<Trans>Cancel</Trans>}
      pending={remove.isPending}
      error={remove.error ? <FormErrorAlert error={remove.error} /> : null}
      onConfirm={() =>
        remove.mutate(profile.version, {
          onSuccess: () => {
            showToast('success', t`Certificate profile deleted.`);
            onClose();
            onDeleted?.();
          },
        })
      }
    />
  );
}
