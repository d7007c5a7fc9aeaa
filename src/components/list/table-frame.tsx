import type { ReactNode } from 'react';
import './list.css';

interface TableFrameProps {
  /** Names the region, e.g. "Accounts table". */
  label: string;
  /** A `.list-table`. */
  children: ReactNode;
}

/**
 * The frame a list's table scrolls in when it is wider than the page, so that the page itself never
 * scrolls sideways. It is a named region in the tab order: keyboard users scroll it with the arrow
 * keys, screen-reader users find it among the landmarks.
 */
export function TableFrame({ label, children }: TableFrameProps) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className="table-frame" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
