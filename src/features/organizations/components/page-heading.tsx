import type { ReactNode } from 'react';
import { PageTitle } from '../../../components/page-title.tsx';

interface PageHeadingProps {
  title: ReactNode;
  /** Whose list or which organization this is, under the title. */
  subtitle: ReactNode;
  /** The page's buttons, beside the title. */
  actions?: ReactNode;
}

/** The title block of every organizations page; the title is the page's label (`page-title`). */
export function PageHeading({ title, subtitle, actions }: PageHeadingProps) {
  return (
    <div className="organizations-heading">
      <div>
        <PageTitle>{title}</PageTitle>
        <p className="organizations-subtitle">{subtitle}</p>
      </div>
      {actions ? <div className="organizations-actions">{actions}</div> : null}
    </div>
  );
}
