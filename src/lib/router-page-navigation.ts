import { useRouter } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { PageNavigation } from './page-navigation.tsx';

/** `PageNavigation` inside the router: its navigation and its preloading. */
export function useRouterPageNavigation(): PageNavigation {
  const router = useRouter();
  return useMemo(
    () => ({
      go: (href, options) => router.navigate({ href, replace: options?.replace }),
      // The router takes the place from `href`; its types ask for a `to` as well, which `href` replaces.
      preload: (href) => void router.preloadRoute({ to: '/', href }),
    }),
    [router],
  );
}
