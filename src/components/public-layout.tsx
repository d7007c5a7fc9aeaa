import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/document-title.ts';

interface PublicLayoutProps {
  title: ReactNode;
  /** Sits under the heading, e.g. who the user is signing in to. */
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}

/** Frame of the pages used without a session: sign-in, setup, welcome and the error pages. */
export function PublicLayout({ title, subtitle, children, footer, wide = false }: PublicLayoutProps) {
  const heading = useDocumentTitle();
  return (
    <div className="public">
      <header className="public__brand">
        <img src={`${import.meta.env.BASE_URL}icon.svg`} alt="" width={32} height={32} />
        <span className="public__product">
          <Trans>Trust Console</Trans>
        </span>
      </header>
      <main className={wide ? 'public__card public__card--wide' : 'public__card'} id="main-content">
        <h1 className="public__title" ref={heading}>
          {title}
        </h1>
        {subtitle ? <p className="public__subtitle">{subtitle}</p> : null}
        {children}
      </main>
      {footer ? <footer className="public__footer">{footer}</footer> : null}
    </div>
  );
}
