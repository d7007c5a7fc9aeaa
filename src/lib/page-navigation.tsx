import { type AnchorHTMLAttributes, createContext, type MouseEvent, useContext } from 'react';
import { CONSOLE_BASE_PATH } from '../../contract/paths.ts';

/**
 * How a page drawn both before and inside the router moves on (the sign-in page: main.tsx draws it
 * without the router on a visit that starts there, docs/decisions/030-sign-in-without-the-router.md).
 * Addresses are console paths below the base path, as the router's `href` takes them. Inside the
 * router it is the router (`routerPageNavigation`, router.ts); before it, main.tsx's start, which
 * loads the router on the first move.
 */
export interface PageNavigation {
  /** Shows the page at `href`; settles once it is drawn. */
  go(href: string, options?: { replace?: boolean }): Promise<void>;
  /** Starts loading the page at `href` (its code, and its data where a session allows). */
  preload(href: string): void;
}

const PageNavigationContext = createContext<PageNavigation | null>(null);

export const PageNavigationProvider = PageNavigationContext.Provider;

export function usePageNavigation(): PageNavigation {
  const navigation = useContext(PageNavigationContext);
  if (!navigation) throw new Error('usePageNavigation needs a PageNavigationProvider above it');
  return navigation;
}

interface PageLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A console path below the base path. */
  to: string;
}

/**
 * A link to another console page for the pages that `PageNavigation` serves; every other page uses
 * the router's `Link`. A click with a modifier key, or any but the main button, is the browser's
 * (a new tab or window).
 */
export function PageLink({ to, onClick, ...anchor }: PageLinkProps) {
  const navigation = usePageNavigation();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigation.go(to);
  };
  return <a {...anchor} href={`${CONSOLE_BASE_PATH}${to}`} onClick={follow} />;
}
