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
const TypeToConfirmFrame = lazy(() =>
  loadDialogFrame().then(({ TypeToConfirmFrame }) => ({ default: TypeToConfirmFrame })),
);

/** True from the first time `open` is, on: a dialog's frame is drawn from its first opening. */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/**
 * A modal dialog (dialog-frame.tsx). Its code (Ark UI's dialog, focus trap and layers, about 14 KB
 * gzip) is fetched when a dialog first opens, not with the screen: until then nothing is drawn, as a
 * closed dialog draws nothing. The frame stays mounted from that first opening on, so closing runs
 * its focus return and exit as before, and later openings are immediate.
 */
export function Dialog(props: DialogProps) {
  if (!useOpenedOnce(props.open)) return null;
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
export function TypeToConfirmDialog(props: TypeToConfirmDialogProps) {
  // The frame and its form come in one piece, so the dialog opens with its field to focus.
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <TypeToConfirmFrame {...props} />
    </Suspense>
  );
}
