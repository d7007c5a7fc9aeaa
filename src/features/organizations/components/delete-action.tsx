import { Trans } from '@lingui/react/macro';
import type { UseMutationResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { QueuedResponse } from '../../../../contract/outbox.ts';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ReloadOnConflict } from '../../../components/ui/form.tsx';
import { isQueued, newIdempotencyKey } from '../../../lib/offline/queueable-request.ts';
import type { Versioned } from '../../../lib/offline/versioned-change.ts';

interface DeleteActionProps<TFields> {
  /** The button on the page, e.g. "Delete organization". */
  label: ReactNode;
  title: ReactNode;
  /** What will be deleted and that it cannot be undone; read out when the dialog opens. */
  warning: ReactNode;
  confirmLabel: ReactNode;
  mutation: UseMutationResult<undefined | QueuedResponse, Error, Versioned<TFields>>;
  /** The version of the item as the page loaded it: a newer one on the server refuses the deletion. */
  version: number;
  /** The item's fields as the page shows them (`Versioned.base`). */
  base: TFields;
  /**
   * Runs after the server deleted the item, or the outbox kept the deletion (`queued`): the notice and
   * leaving the page of what is gone.
   */
  onDeleted: (queued: boolean) => void;
  /** After a conflict: load the item's current version. */
  onReload: () => void;
}

/**
 * A delete button with a destructive confirmation (an alert dialog that a stray click outside does
 * not dismiss). Cancel comes first, so a reflexive Enter on opening does not delete; a failure is
 * shown inside the dialog so the user can try again or cancel.
 */
export function DeleteAction<TFields>({
  label,
  title,
  warning,
  confirmLabel,
  mutation,
  version,
  base,
  onDeleted,
  onReload,
}: DeleteActionProps<TFields>) {
  const [open, setOpen] = useState(false);
  const changeOpen = (next: boolean) => {
    if (!next) mutation.reset();
    setOpen(next);
  };
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Dialog open={open} onOpenChange={changeOpen} title={title} description={warning} role="alertdialog">
        {mutation.error ? <ServerErrorAlert error={mutation.error} /> : null}
        {mutation.error ? (
          <ReloadOnConflict
            error={mutation.error}
            onReload={() => {
              changeOpen(false);
              onReload();
            }}
          />
        ) : null}
        <div className="dialog__actions">
          <Button variant="secondary" onClick={() => changeOpen(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            className="button--danger"
            busy={mutation.isPending}
            onClick={() => {
              if (mutation.isPending) return;
              mutation.mutate(
                { version, base, idempotencyKey: newIdempotencyKey() },
                { onSuccess: (result) => onDeleted(isQueued(result)) },
              );
            }}
          >
            {confirmLabel}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
