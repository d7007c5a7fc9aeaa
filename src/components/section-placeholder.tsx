import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';

interface SectionPlaceholderProps {
  title: ReactNode;
}

/** A section whose screens are not built yet: its place in the console, honestly empty. */
export function SectionPlaceholder({ title }: SectionPlaceholderProps) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title" className="page__title">
        {title}
      </h1>
      <div className="empty-state" role="status">
        <p>
          <Trans>This section is not available yet.</Trans>
        </p>
      </div>
    </section>
  );
}
