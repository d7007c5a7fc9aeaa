import type { ReactNode } from 'react';
import './status-badge.css';

/** good green, bad red, warning gold, waiting blue: the theme's certificate and info colours. */
export type StatusTone = 'good' | 'bad' | 'warning' | 'waiting';

/**
 * A status in its colour and always with its name, so the colour never carries it alone. `marker`
 * names what the status is of (`certificate-status--revoked`), for styles and tests that look for it.
 */
export function StatusBadge({
  tone,
  status,
  marker,
  children,
}: {
  tone: StatusTone;
  status: string;
  marker: string;
  children: ReactNode;
}) {
  return (
    <span className={`status-badge status-badge--${tone} ${marker}`} data-status={status}>
      {children}
    </span>
  );
}
