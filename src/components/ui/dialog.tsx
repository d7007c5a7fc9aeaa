import { lazy, type ReactNode, Suspense, useState } from 'react';

export interface DialogProps {
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

const loadDialogFrame = () => import('./dialog-frame.tsx');
const DialogFrame = lazy(() => loadDialogFrame().then(({ DialogFrame }) => ({ default: DialogFrame })));
const TypeToConfirmForm = lazy(() =>
  loadDialogFrame().then(({ TypeToConfirmForm }) => ({ default: TypeToConfirmForm })),
);

/**
 * A modal dialog (dialog-frame.tsx). Its code (Ark UI's dialog, focus trap and layers, about 14 KB
 * gzip) is fetched when a dialog first opens, not with the screen: until then nothing is drawn, as a
 * closed dialog draws nothing. The frame stays mounted from that first opening on, so closing runs
 * its focus return and exit as before, and later openings are immediate.
 */
export function Dialog(props: DialogProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <DialogFrame {...props} />
    </Suspense>
  );
}

export interface TypeToConfirmDialogProps {
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
      {/* Its own boundary: the form's first render inside an open dialog must not hide the dialog. */}
      <Suspense fallback={null}>
        <TypeToConfirmForm {...form} />
      </Suspense>
    </Dialog>
  );
}
