import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { isFollowableUrl } from '../../../lib/external-navigation.ts';

interface ExternalLinkProps {
  /** An address the server gave; anything but http(s) is shown as plain text, never as a link. */
  href: string | null;
  className?: string;
  children: ReactNode;
}

/** A link to the external identity product, in a new tab that cannot reach back into the console. */
export function ExternalLink({ href, className, children }: ExternalLinkProps) {
  if (!href || !isFollowableUrl(href)) return <span className={className}>{children}</span>;
  return (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden">
        {' '}
        <Trans>(opens in a new tab)</Trans>
      </span>
    </a>
  );
}
