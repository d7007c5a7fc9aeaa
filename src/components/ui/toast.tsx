import { createToaster, Toast, Toaster } from '@ark-ui/react/toast';
import type { NotificationType } from '../../../contract/constants.ts';

/** The one toast queue of the console; errors stay until dismissed so they can be read in full. */
export const toaster = createToaster({ placement: 'bottom-end', overlap: false, gap: 12, max: 5 });

export function showToast(type: NotificationType, description: string): void {
  toaster.create({ type, description, duration: type === 'error' ? Number.POSITIVE_INFINITY : 6000 });
}

interface ToastRegionProps {
  /**
   * Accessible name of the region, in the reader's language: Ark's own is the English
   * "Notifications, bottom-end (alt+T)". Alt+T moves the focus to the region.
   */
  regionLabel: string;
  /** Accessible name of the close button of each toast. */
  dismissLabel: string;
}

/** Ark's toast group is a labelled live region, so new toasts are announced. */
export function ToastRegion({ regionLabel, dismissLabel }: ToastRegionProps) {
  return (
    <Toaster toaster={toaster} className="toaster" aria-label={regionLabel}>
      {(toast) => (
        <Toast.Root className={`toast toast--${toast.type ?? 'info'}`}>
          <Toast.Description className="toast__description">{toast.description}</Toast.Description>
          <Toast.CloseTrigger className="toast__close" aria-label={dismissLabel}>
            <span aria-hidden="true">×</span>
          </Toast.CloseTrigger>
        </Toast.Root>
      )}
    </Toaster>
  );
}
