import { useEffect, useSyncExternalStore } from 'react';

/*
 * The pages before sign-in (sign-in, first-time setup, welcome) read four public answers with this
 * small module instead of the query library, which only the console behind sign-in loads: the
 * sign-in page stays within its JavaScript budget that way (docs/decisions/015-sign-in-page-weight.md).
 * Their calls (verify the username, sign in, the setup steps) are form submissions: the form kit
 * (lib/form) gives them their pending state and error.
 */

interface ResourceState<T> {
  data: T | undefined;
  error: unknown;
  /** Epoch milliseconds of the last answer; 0 before the first. */
  updatedAt: number;
}

/** One public answer, fetched once and shared by every page that reads it until it goes stale. */
export interface PublicResource<T> {
  /** The answer, fetched when there is none yet or it is older than `maxAgeMs` (or `fresh`). */
  read(options?: { fresh?: boolean }): Promise<T>;
  /** The next `read` asks the server again; pages already showing the answer keep it until then. */
  invalidate(): void;
  subscribe(listener: () => void): () => void;
  snapshot(): ResourceState<T>;
}

/**
 * `maxAgeMs` 0: every `read` asks the server (answers that decide where a page leads); concurrent
 * reads still share one request.
 */
export function publicResource<T>(load: () => Promise<T>, maxAgeMs: number): PublicResource<T> {
  let state: ResourceState<T> = { data: undefined, error: undefined, updatedAt: 0 };
  let inFlight: Promise<T> | null = null;
  const listeners = new Set<() => void>();

  const update = (next: ResourceState<T>) => {
    state = next;
    for (const listener of listeners) listener();
  };

  const isFresh = () => state.updatedAt > 0 && Date.now() - state.updatedAt < maxAgeMs;

  return {
    read({ fresh = false } = {}) {
      if (!fresh && isFresh() && state.data !== undefined) return Promise.resolve(state.data);
      inFlight ??= load()
        .then(
          (data) => {
            update({ data, error: undefined, updatedAt: Date.now() });
            return data;
          },
          (error: unknown) => {
            update({ ...state, error });
            throw error;
          },
        )
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
    invalidate() {
      state = { ...state, updatedAt: 0 };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: () => state,
  };
}

/**
 * The resource's answer for a component, fetched on first use. A failure leaves `data` undefined;
 * what these pages read is decoration (languages, footer links) with a built-in fallback.
 */
export function usePublicResource<T>(resource: PublicResource<T>): ResourceState<T> {
  const state = useSyncExternalStore(resource.subscribe, resource.snapshot);
  const needsAnswer = state.updatedAt === 0;
  useEffect(() => {
    if (needsAnswer) resource.read().catch(() => undefined);
  }, [resource, needsAnswer]);
  return state;
}
