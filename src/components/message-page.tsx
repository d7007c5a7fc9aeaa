import { type ReactNode, useId } from 'react';
import { useDocumentTitle } from '../lib/document-title.ts';
import './message-page.css';

interface MessagePageProps {
  title: ReactNode;
  children: ReactNode;
}

/** A page that only says something (403, not found, cannot load): a titled region and its text. */
export function MessagePage({ title, children }: MessagePageProps) {
  const titleId = useId();
  const heading = useDocumentTitle();
  return (
    <section className="page page--message" aria-labelledby={titleId}>
      <h1 id={titleId} className="page__title" ref={heading}>
        {title}
      </h1>
      {children}
    </section>
  );
}
