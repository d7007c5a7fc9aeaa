import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { notify } from './notify.ts';
import { TypeToConfirmDialog } from './ui/dialog.tsx';
import { FormErrorAlert } from './ui/form.tsx';

/** The word a user types to confirm a deletion. */
const DELETE_CONFIRMATION_WORD = 'DELETE';

/**
 * A deletion confirmed by typing DELETE: the input's label, the word and the cancel button are the
 * same on every screen; the caller says what is deleted and how.
 */
export function TypeDeleteDialog({
  open,
  onOpenChange,
  title,
  warning,
  confirmLabel,
  pending,
  error,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  warning: ReactNode;
  confirmLabel: ReactNode;
  pending: boolean;
  error?: ReactNode;
  onConfirm: () => void;
}) {
  const { t } = useLingui();
  return (
    <TypeToConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      warning={warning}
      inputLabel={t`Type DELETE to confirm`}
      expected={DELETE_CONFIRMATION_WORD}
      maxLength={DELETE_CONFIRMATION_WORD.length}
      confirmLabel={confirmLabel}
      cancelLabel={<Trans>Cancel</Trans>}
      pending={pending}
      error={error}
      onConfirm={() => onConfirm()}
    />
  );
}

/** An object deleted by id with its version as the precondition. */
export interface DeletableItem {
  id: string;
  name: string;
  version: number;
}

/** A feature's delete mutation of one object, made for its id; it sends the version as If-Match. */
export interface DeleteMutation {
  isPending: boolean;
  error: Error | null;
  reset: () => void;
  mutate: (version: number, options: { onSuccess: () => void }) => void;
}

interface DeleteItemDialogProps {
  /** The object to delete; the dialog is open while it is set. */
  item: DeletableItem | null;
  onClose: () => void;
  /** Runs after the notice, e.g. to leave a details page. */
  onDeleted?: () => void;
  /** The feature's delete mutation hook, called with the item's id. */
  useDelete: (id: string) => DeleteMutation;
  /** What the deletion does to the objects that depend on this one. */
  warning: ReactNode;
  /** The notice after the deletion. */
  deletedNotice: string;
}

/**
 * Deletes one named object after typing DELETE, from its details page and from its list's row. Open
 * while `item` is set; `onDeleted` runs after the notice.
 */
export function DeleteItemDialog({ item, ...props }: DeleteItemDialogProps) {
  return item ? <ItemDialog key={item.id} item={item} {...props} /> : null;
}

function ItemDialog({
  item,
  onClose,
  onDeleted,
  useDelete,
  warning,
  deletedNotice,
}: Omit<DeleteItemDialogProps, 'item'> & { item: DeletableItem }) {
  const remove = useDelete(item.id);
  const name = item.name;
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <TypeDeleteDialog
      open
      onOpenChange={(next) => (next ? undefined : close())}
      title={<Trans>Delete {name}?</Trans>}
      warning={warning}
      confirmLabel={<Trans>Delete</Trans>}
      pending={remove.isPending}
      error={remove.error ? <FormErrorAlert error={remove.error} /> : null}
      onConfirm={() =>
        remove.mutate(item.version, {
          onSuccess: () => {
            notify('success', deletedNotice);
            onClose();
            onDeleted?.();
          },
        })
      }
    />
  );
}
