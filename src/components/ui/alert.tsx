import type { ReactNode } from 'react';

type AlertTone = 'error' | 'warning' | 'info' | 'success';

interface AlertProps {
  tone: AlertTone;
  children: ReactNode;
  /** Rendered as a close button; the label must say what is dismissed. */
  onDismiss?: () => void;
  dismissLabel?: string;
}

/**
 * A banner inside the page. Errors use role="alert" so they are announced at once; the other tones
 * are polite status messages.
 */
export function Alert({ tone, children, onDismiss, dismissLabel }: AlertProps) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className="alert__body">{children}</div>
      {onDismiss && dismissLabel ? (
        <button type="button" className="alert__dismiss" onClick={onDismiss} aria-label={dismissLabel}>
          <span aria-hidden="true">×</span>
        </button>
      ) : null}
    </div>
  );
}
