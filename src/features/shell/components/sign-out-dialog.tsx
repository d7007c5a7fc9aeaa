import { Plural, Trans } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';

interface SignOutDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Changes of this user the server does not have yet. */
  waiting: number;
  pending: boolean;
  onSignOut: (keepOutbox: boolean) => void;
}

/**
 * Sign-out with changes still in the outbox: keep them for the user's next sign-in on this browser
 * (held, unreadable to anyone else meanwhile) or discard them. Cancel stays signed in.
 */
export function SignOutDialog({ open, onOpenChange, waiting, pending, onSignOut }: SignOutDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      role="alertdialog"
      title={<Trans>Sign out with changes waiting?</Trans>}
      description={
        <Plural
          value={waiting}
          one="# change you made is not on the server yet. Keep it for your next sign-in on this browser, or discard it."
          other="# changes you made are not on the server yet. Keep them for your next sign-in on this browser, or discard them."
        />
      }
    >
      <div className="dialog__actions">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          <Trans>Cancel</Trans>
        </Button>
        <Button
          variant="secondary"
          className="button--danger"
          busy={pending}
          onClick={() => onSignOut(false)}
        >
          <Trans>Discard and sign out</Trans>
        </Button>
        <Button busy={pending} onClick={() => onSignOut(true)}>
          <Trans>Keep and sign out</Trans>
        </Button>
      </div>
    </Dialog>
  );
}
