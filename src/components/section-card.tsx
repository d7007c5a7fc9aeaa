import type { ReactNode } from 'react';

interface SectionCardProps {
  titleId: string;
  title: ReactNode;
  children: ReactNode;
}

/**
 * One item of a details page's section (an application, a sign-in method, an organization) as a
 * titled card. Shared because a section may come from another feature: the account details page
 * shows the organizations feature's cards.
 */
export function SectionCard({ titleId, title, children }: SectionCardProps) {
  return (
    <article className="account-card" aria-labelledby={titleId}>
      <h3 id={titleId} className="account-card__title">
        {title}
      </h3>
      {children}
    </article>
  );
}

/** A section's content when it has nothing to list: said plainly, not left blank. */
export function SectionEmpty({ children }: { children: ReactNode }) {
  return <p className="account-section__empty">{children}</p>;
}
