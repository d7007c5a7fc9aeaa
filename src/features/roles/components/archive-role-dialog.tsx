import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import type { RoleDetails } from '../../../../contract/schemas/users.ts';
import { notify } from '../../../components/notify.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { useArchiveRole } from '../mutations.ts';

interface ArchiveRoleDialogProps {
  role: RoleDetails;
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Archives the role after saying how many users lose its permissions at once (O-49). */
export function ArchiveRoleDialog({ role, name, open, onOpenChange }: ArchiveRoleDialogProps) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const archive = useArchiveRole(role.id);
  const changeOpen = (next: boolean) => {
    if (!next) archive.reset();
    onOpenChange(next);
  };
  const count = role.users_count;
  return (
    <Dialog
      open={open}
      onOpenChange={changeOpen}
      role="alertdialog"
      title={<Trans>Archive role {name}</Trans>}
      description={
        <>
          <Plural
            value={count}
            _0="No user holds this role."
            one="# user holds this role and loses its permissions at once."
            other="# users hold this role and lose its permissions at once."
          />{' '}
          <Trans>An archived role cannot be assigned or edited again; it can still be cloned.</Trans>
        </>
      }
    >
      <div className="dialog__form">
        {archive.error ? <FormErrorAlert error={archive.error} /> : null}
        <div className="dialog__actions">
          <Button variant="secondary" onClick={() => changeOpen(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            className="button--danger"
            busy={archive.isPending}
            onClick={() =>
              archive.mutate(role.version, {
                onSuccess: () => {
                  notify('success', t`Role archived.`);
                  void navigate({ to: '/access/manage-user-roles' });
                },
              })
            }
          >
            <Trans>Archive role</Trans>
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
