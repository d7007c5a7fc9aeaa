import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { ACCOUNT_NAME_MAX_LENGTH } from '../../../../contract/validation.ts';
import { notify } from '../../../components/notify.ts';
import { TypeToConfirmDialog } from '../../../components/ui/dialog.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { useDeleteAccount } from '../mutations.ts';

interface DeleteAccountDialogProps {
  account: { id: string; name: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Deletes the account after the user typed its name, then leaves for the accounts list with the
 * account-deleted notice (H-24, H-25).
 */
export function DeleteAccountDialog({ account, open, onOpenChange }: DeleteAccountDialogProps) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const remove = useDeleteAccount(account.id);
  const changeOpen = (next: boolean) => {
    if (!next) remove.reset();
    onOpenChange(next);
  };
  const name = account.name;
  return (
    <TypeToConfirmDialog
      open={open}
      onOpenChange={changeOpen}
      title={<Trans>Delete account</Trans>}
      warning={
        <>
          <Trans>The account {name} will be deleted. This cannot be undone.</Trans>{' '}
          <Trans>Every certificate of the account and of its users is revoked.</Trans>
        </>
      }
      inputLabel={t`Type the account name, ${name}, to confirm`}
      expected={name}
      maxLength={ACCOUNT_NAME_MAX_LENGTH}
      confirmLabel={<Trans>Delete account</Trans>}
      cancelLabel={<Trans>Cancel</Trans>}
      pending={remove.isPending}
      error={remove.error ? <FormErrorAlert error={remove.error} /> : null}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            notify('success', t`Account deleted.`);
            void navigate({ to: '/accounts' });
          },
        })
      }
    />
  );
}
