import { useLingui } from '@lingui/react/macro';
import { createContext, type RefObject, useContext, useLayoutEffect, useRef } from 'react';

/**
 * Where the page is, after its own heading in the tab's title: the account the user works in on a
 * secure page; nothing on the pages before sign-in. Provided by the secure shell.
 */
export const DocumentTitlePlace = createContext<string | null>(null);

/**
 * Titles the tab and the history entry after the page's visible heading, its place and the product
 * ("Administrators · Acme — Trust Console"), so that tabs, history and screen readers' window lists
 * tell pages apart. The heading's text is read after each render, so a title made of loaded data
 * (a person's name) follows it, in the language the heading is in. Returns the ref the page's
 * heading takes.
 */
export function useDocumentTitle(): RefObject<HTMLHeadingElement | null> {
  const heading = useRef<HTMLHeadingElement>(null);
  const { t } = useLingui();
  const place = useContext(DocumentTitlePlace);
  const product = t`Trust Console`;
  useLayoutEffect(() => {
    const text = heading.current?.textContent?.replace(/\s+/g, ' ').trim();
    const page = [text, place].filter(Boolean).join(' · ');
    document.title = page ? `${page} — ${product}` : product;
  });
  return heading;
}
