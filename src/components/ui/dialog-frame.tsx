import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { type FormEvent, useState } from 'react';
import { Button } from './button.tsx';
import type { DialogProps, TypeToConfirmDialogProps } from './dialog.tsx';
import { TextField } from './field.tsx';

/**
 * A modal dialog (WAI-ARIA dialog pattern from Ark UI): focus moves in and is trapped, Escape closes,
 * the page behind is inert, and focus returns to where it was when the dialog closes. The content
 * mounts on opening and unmounts on closing, so every opening starts from an empty form. Loaded
 * with the first opening (dialog.tsx).
 */
export function DialogFrame({
  open,
  onOpenChange,
  title,
  description,
  role = 'dialog',
  finalFocusEl,
  children,
}: DialogProps) {
  return (
    <ArkDialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      role={role}
      closeOnInteractOutside={role !== 'alertdialog'}
      finalFocusEl={finalFocusEl}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <ArkDialog.Backdrop className="dialog__backdrop" />
        <ArkDialog.Positioner className="dialog__positioner">
          <ArkDialog.Content className={`dialog dialog--${role}`}>
            <ArkDialog.Title className="dialog__title">{title}</ArkDialog.Title>
            {description ? (
              <ArkDialog.Description className="dialog__description">{description}</ArkDialog.Description>
            ) : null}
            {children}
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}

/** `TypeToConfirmDialog` (dialog.tsx): the frame as an alert dialog, and the typed confirmation. */
export function TypeToConfirmFrame({
  open,
  onOpenChange,
  title,
  warning,
  finalFocusEl,
  ...form
}: TypeToConfirmDialogProps) {
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={warning}
      role="alertdialog"
      finalFocusEl={finalFocusEl}
    >
      <TypeToConfirmForm {...form} />
    </DialogFrame>
  );
}

/** Its cancel button is the dialog's close trigger. */
function TypeToConfirmForm({
  inputLabel,
  expected,
  maxLength,
  confirmLabel,
  cancelLabel,
  pending,
  error,
  onConfirm,
}: Omit<TypeToConfirmDialogProps, 'open' | 'onOpenChange' | 'title' | 'warning' | 'finalFocusEl'>) {
  const [typed, setTyped] = useState('');
  const matches = typed === expected;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (matches && !pending) onConfirm(typed);
  };
  return (
    <form className="dialog__form" onSubmit={submit} noValidate>
      {error}
      <TextField
        label={inputLabel}
        name="confirmation"
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        maxLength={maxLength}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required
      />
      <div className="dialog__actions">
        <ArkDialog.CloseTrigger asChild>
          <Button variant="secondary">{cancelLabel}</Button>
        </ArkDialog.CloseTrigger>
        <Button type="submit" className="button--danger" disabled={!matches} busy={pending}>
          {confirmLabel}
        </Button>
      </div>
    </form>
  );
}
