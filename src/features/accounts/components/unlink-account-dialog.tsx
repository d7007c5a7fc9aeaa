import { Trans, useLingui } from '@lingui/react/macro';
import { UNLINK_CONFIRMATION_WORD } from '../../../../contract/schemas/tenants.ts';
import { TypeToConfirmDialog } from '../../../components/ui/dialog.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { useUnlinkAccount } from '../mutations.ts';

/** The confirmation may be 1 to 256 characters (account administration §5, §9). */
const CONFIRMATION_MAX_LENGTH = 256;

interface UnlinkAccountDialogProps {
  accountId: string;
  provider: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onUnlinked: () => void;
  /** The Unlink button disappears with the link, so focus needs somewhere else to go. */
  finalFocusEl: () => HTMLElement | null;
}

/** Unlinks the account from its single sign-in identity once the user typed UNLINK (account administration §2). */
export function UnlinkAccountDialog({
  accountId,
  provider,
  open,
  onOpenChange,
  onUnlinked,
  finalFocusEl,
}: UnlinkAccountDialogProps) {
  const { t } = useLingui();
  const unlink = useUnlinkAccount(accountId);
  const changeOpen = (next: boolean) => {
    if (!next) unlink.reset();
    onOpenChange(next);
  };
  const word = UNLINK_CONFIRMATION_WORD;
  return (
    <TypeToConfirmDialog
      open={open}
      onOpenChange={changeOpen}
      finalFocusEl={finalFocusEl}
      title={<Trans>Unlink account</Trans>}
      warning={
        provider ? (
          <Trans>
            The account will no longer be managed by {provider}, and its users will no longer sign in through
            it. This cannot be undone from the console.
          </Trans>
        ) : (
          <Trans>
            The account will no longer be managed by its external identity product, and its users will no
            longer sign in through it. This cannot be undone from the console.
          </Trans>
        )
      }
      inputLabel={t`Type ${word} to confirm`}
      expected={word}
      maxLength={CONFIRMATION_MAX_LENGTH}
      confirmLabel={<Trans>Unlink account</Trans>}
      cancelLabel={<Trans>Cancel</Trans>}
      pending={unlink.isPending}
      error={unlink.error ? <FormErrorAlert error={unlink.error} /> : null}
      onConfirm={() =>
        unlink.mutate(word, {
          onSuccess: () => {
            changeOpen(false);
            onUnlinked();
          },
        })
      }
    />
  );
}
