import type { ReactNode } from 'react';

/** One label and its value in a details page's description list (`<dl className="details">`). */
export function DetailsRow({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="details__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
