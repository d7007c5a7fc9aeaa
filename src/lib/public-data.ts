import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';

/*
 * The pages before sign-in (sign-in, first-time setup, welcome) read four public answers and make
 * three calls. They do it with this small module instead of the query library, which only the
 * console behind sign-in loads: the sign-in page stays within its JavaScript budget that way
 * (docs/decisions/015-sign-in-page-weight.md).
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

interface ActionCallbacks<TResult> {
  onSuccess?: (result: TResult) => void;
}

export interface Action<TInput, TResult> {
  run(input: TInput, callbacks?: ActionCallbacks<TResult>): void;
  isPending: boolean;
  /** The last run's failure, cleared when the next run starts. */
  error: Error | null;
}

/**
 * A call a form makes (verify the username, sign in, install the licence): its pending state and
 * error for the form to show. When the user submits again before the first answer, only the latest
 * run reports back; an answer arriving after the form left is dropped. `perform` is a function
 * defined outside the component, so `run` keeps its identity across renders.
 */
export function useAction<TInput, TResult>(
  perform: (input: TInput) => Promise<TResult>,
): Action<TInput, TResult> {
  const [status, setStatus] = useState<{ isPending: boolean; error: Error | null }>({
    isPending: false,
    error: null,
  });
  const latestRun = useRef(0);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(
    (input: TInput, callbacks?: ActionCallbacks<TResult>) => {
      const runId = ++latestRun.current;
      const current = () => mounted.current && runId === latestRun.current;
      setStatus({ isPending: true, error: null });
      perform(input).then(
        (result) => {
          if (!current()) return;
          setStatus({ isPending: false, error: null });
          callbacks?.onSuccess?.(result);
        },
        (error: unknown) => {
          if (current())
            setStatus({ isPending: false, error: error instanceof Error ? error : new Error(String(error)) });
        },
      );
    },
    [perform],
  );

  return { run, isPending: status.isPending, error: status.error };
}
