import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { notify } from '../../../components/notify.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useChangeRoleUsers } from '../mutations.ts';
import { roleUserSearchQueryOptions } from '../queries.ts';

interface AssignUsersDialogProps {
  roleId: string;
  roleName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** "Assign users": searches the users the viewer reaches and gives the role to the ones chosen. */
export function AssignUsersDialog({ roleId, roleName, open, onOpenChange }: AssignUsersDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={<Trans>Assign users to {roleName}</Trans>}
      description={
        <Trans>Search by name, username or e-mail, then add the users who should hold the role.</Trans>
      }
    >
      <AssignUsersForm roleId={roleId} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function AssignUsersForm({ roleId, onDone }: { roleId: string; onDone: () => void }) {
  const { t } = useLingui();
  const [typed, setTyped] = useState('');
  const q = useDebouncedValue(typed.trim());
  const search = useQuery({ ...roleUserSearchQueryOptions(q), enabled: q !== '' });
  const [chosen, setChosen] = useState<ReadonlyMap<string, string>>(new Map());
  const change = useChangeRoleUsers(roleId);
  const choose = (id: string, name: string) => setChosen((current) => new Map(current).set(id, name));
  const drop = (id: string) =>
    setChosen((current) => {
      const next = new Map(current);
      next.delete(id);
      return next;
    });
  const found = q === '' ? [] : (search.data?.items ?? []);
  return (
    <form
      className="dialog__form assign-users"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen.size === 0 || change.isPending) return;
        change.mutate(
          { add: [...chosen.keys()] },
          {
            onSuccess: () => {
              notify('success', t`Permissions edited.`);
              onDone();
            },
          },
        );
      }}
    >
      {change.error ? <FormErrorAlert error={change.error} /> : null}
      <TextField
        label={t`Find users`}
        type="search"
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        autoComplete="off"
      />
      <p role="status" className="assign-users__status">
        {q === '' ? null : search.isError ? (
          <Trans>The search failed. Try again.</Trans>
        ) : search.data && !search.isPlaceholderData ? (
          found.length === 0 ? (
            <Trans>No user matches.</Trans>
          ) : null
        ) : (
          <Trans>Searching…</Trans>
        )}
      </p>
      {found.length > 0 ? (
        <ul className="assign-users__results" aria-label={t`Users found`}>
          {found.map((user) => {
            const name = `${user.first_name} ${user.last_name}`;
            const picked = chosen.has(user.id);
            return (
              <li key={user.id}>
                <span>
                  {name} <span className="assign-users__secondary">{user.user_name}</span>
                </span>
                <Button
                  variant="secondary"
                  aria-pressed={picked}
                  onClick={() => (picked ? drop(user.id) : choose(user.id, name))}
                >
                  {picked ? <Trans>Chosen: {name}</Trans> : <Trans>Choose {name}</Trans>}
                </Button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {chosen.size > 0 ? (
        <p className="assign-users__chosen">
          <Trans>Chosen:</Trans> {[...chosen.values()].join(', ')}
        </p>
      ) : null}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={chosen.size === 0} busy={change.isPending}>
          <Trans>Assign</Trans>
        </Button>
      </div>
    </form>
  );
}
