import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { UserSummary } from '../../../../contract/schemas/users.ts';
import { TypeDeleteDialog } from '../../../components/delete-dialog.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { useDeleteUsers } from '../mutations.ts';
import './administrator-forms.css';

/**
 * "Delete selected" over the list (decision 039 §4): the selected rows of the page, deleted all or
 * none (DELETE user?ids=) once the user typed DELETE.
 */
export function DeleteSelectedButton({
  users,
  onDeleted,
}: {
  users: readonly UserSummary[];
  onDeleted: () => void;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const remove = useDeleteUsers();
  const count = users.length;
  const changeOpen = (next: boolean) => {
    if (!next) remove.reset();
    setOpen(next);
  };
  return (
    <div className="administrators-selection">
      <span role="status">
        {count > 0 ? <Plural value={count} one="# selected" other="# selected" /> : null}
      </span>
      <NeedsConnection>
        {(gate) => (
          <Button
            variant="secondary"
            className="button--danger"
            disabled={count === 0}
            {...gate.controlProps}
            onClick={() => setOpen(true)}
          >
            <Trans>Delete selected</Trans>
          </Button>
        )}
      </NeedsConnection>
      <TypeDeleteDialog
        open={open}
        onOpenChange={changeOpen}
        title={<Trans>Delete administrators</Trans>}
        warning={
          <>
            <Plural
              value={count}
              one="# administrator will be deleted. This cannot be undone."
              other="# administrators will be deleted. This cannot be undone."
            />{' '}
            <Trans>The certificates they own are revoked.</Trans>
            <ul>
              {users.map((user) => (
                <li key={user.id}>
                  {user.first_name} {user.last_name} ({user.user_name})
                </li>
              ))}
            </ul>
          </>
        }
        confirmLabel={<Trans>Delete administrators</Trans>}
        pending={remove.isPending}
        error={remove.error ? <FormErrorAlert error={remove.error} /> : null}
        onConfirm={() =>
          remove.mutate(
            users.map((user) => user.id),
            {
              onSuccess: () => {
                notify(
                  'success',
                  count === 1 ? t`Administrator deleted.` : t`${count} administrators deleted.`,
                );
                changeOpen(false);
                onDeleted();
              },
            },
          )
        }
      />
    </div>
  );
}
