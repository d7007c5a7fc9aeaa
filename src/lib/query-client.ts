import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /** `errorToast: false` for mutations whose form shows its own error (sign-in, setup). */
    mutationMeta: { errorToast?: boolean };
  }
}

/** Every query of the selected account sits under this prefix, so switching accounts refetches them. */
export const ACCOUNT_SCOPED_KEY = ['account-scoped'] as const;

/** A 401 has already ended the session and left the page; a toast about it would be noise. */
function isSessionEnd(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/**
 * `notify` shows failures that no screen shows itself: mutations (unless they opt out) and
 * background refetches of data already on screen. A first load's failure belongs to its route.
 */
export function createQueryClient(notify: (error: unknown) => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.state.data !== undefined && !isSessionEnd(error)) notify(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.errorToast !== false && !isSessionEnd(error)) notify(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) =>
          failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  });
}
