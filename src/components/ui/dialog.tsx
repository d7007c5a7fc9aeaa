import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Button } from './button.tsx';
import { TextField } from './field.tsx';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Read out with the title when the dialog opens (aria-describedby). */
  description?: ReactNode;
  /**
   * `alertdialog` for confirmations of destructive actions: assistive technology announces it as an
   * interruption, and a stray click outside does not dismiss it.
   */
  role?: 'dialog' | 'alertdialog';
  /**
   * Where focus goes on closing when the element that opened the dialog is gone (the action removed
   * it); without one, or when it answers `null`, focus returns to that element.
   */
  finalFocusEl?: () => HTMLElement | null;
  children: ReactNode;
}

/**
 * A modal dialog (WAI-ARIA dialog pattern from Ark UI): focus moves in and is trapped, Escape closes,
 * the page behind is inert, and focus returns to where it was when the dialog closes. The content
 * mounts on opening and unmounts on closing, so every opening starts from an empty form.
 */
export function Dialog({
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

interface TypeToConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** What happens and that it cannot be undone. */
  warning: ReactNode;
  /** The label of the input; it says what to type. */
  inputLabel: string;
  /** The exact text that enables the confirm button. */
  expected: string;
  maxLength: number;
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  pending: boolean;
  /** The failure of the last attempt, shown inside the dialog so the user can try again. */
  error?: ReactNode;
  onConfirm: (typed: string) => void;
  finalFocusEl?: () => HTMLElement | null;
}

/**
 * A destructive confirmation that is enabled only once the user typed `expected` exactly, so the
 * action cannot be confirmed by a reflexive Enter or a click on the wrong row.
 */
export function TypeToConfirmDialog({
  open,
  onOpenChange,
  title,
  warning,
  finalFocusEl,
  ...form
}: TypeToConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={warning}
      role="alertdialog"
      finalFocusEl={finalFocusEl}
    >
      <TypeToConfirmForm {...form} />
    </Dialog>
  );
}

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
