import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { PageTitle } from './page-title.tsx';

interface SectionPlaceholderProps {
  title: ReactNode;
}

/** A section whose screens are not built yet: its place in the console, honestly empty. */
export function SectionPlaceholder({ title }: SectionPlaceholderProps) {
  return (
    <section className="page" aria-labelledby="page-title">
      <PageTitle>{title}</PageTitle>
      <div className="empty-state" role="status">
        <p>
          <Trans>This section is not available yet.</Trans>
        </p>
      </div>
    </section>
  );
}
