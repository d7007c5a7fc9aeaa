import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { SessionController } from '../session.ts';
import type { LoadStaleAfter } from '../stale-after-change.ts';
import type { OfflineNotice, SecureSessions, SecureSessionsModule } from './secure-session.ts';

/** What main.tsx makes the offline support with, beside the session it serves. */
export interface OfflineSupportSetup {
  session: SessionController;
  /** The page's query client, made on first use (only the secure layout needs it). */
  loadQueryClient: () => Promise<QueryClient>;
  /** What a change leaving the outbox makes stale: the query client's table (`lib/stale-after-change.ts`). */
  loadStaleAfter: LoadStaleAfter;
  /** Shows the offline support's notices; the library cannot import the screens' toasts (decision 002). */
  notify: (notice: OfflineNotice) => void;
}

/**
 * The console's offline support, one per page like the session: made by `main.tsx` and handed to the
 * routes in the router context and to components by `OfflineSupportProvider`. It owns the offer of a
 * new build, and the secure sessions with their storage keys, cache and outbox (`secure-session.ts`),
 * which load with the secure layout: the pages before sign-in carry only this shell
 * (docs/decisions/013, 015).
 */
export class OfflineSupport {
  #loading: Promise<SecureSessions> | null = null;
  #sessions: SecureSessions | null = null;
  #activateUpdate: (() => void) | null = null;
  readonly #updateListeners = new Set<() => void>();

  constructor(private readonly setup: OfflineSupportSetup) {}

  /**
   * The secure sessions, loaded with the secure layout's code; a failed download is tried again. The
   * layout imports their module, so their texts load with the screens' catalog (decision 028).
   */
  load(importSessions: () => Promise<SecureSessionsModule>): Promise<SecureSessions> {
    if (!this.#loading) {
      const { loadQueryClient, ...setup } = this.setup;
      this.#loading = Promise.all([importSessions(), loadQueryClient()]).then(
        ([{ SecureSessions }, queryClient]) => {
          this.#sessions ??= new SecureSessions({ ...setup, controller: setup.session, queryClient });
          return this.#sessions;
        },
      );
      this.#loading.catch(() => {
        this.#loading = null;
      });
    }
    return this.#loading;
  }

  /** Whether a secure session runs to carry on from the cache when a renewal finds no server. */
  carriesOn(): boolean {
    return this.#sessions?.carriesOn() ?? false;
  }

  /** Destroys what the browser keeps of the secure session, if one ran (sign-out, a lost session). */
  async close(keepOutbox: boolean): Promise<void> {
    await this.#sessions?.close(keepOutbox);
  }

  /** Whether a new build is installed and waiting for the user's go. */
  readonly isUpdateWaiting = (): boolean => this.#activateUpdate !== null;

  readonly subscribeToUpdate = (listener: () => void): (() => void) => {
    this.#updateListeners.add(listener);
    return () => this.#updateListeners.delete(listener);
  };

  /** Lets the waiting worker take over; the page reloads once it controls the page. */
  readonly applyUpdate = (): void => {
    this.#activateUpdate?.();
  };

  /**
   * Registers the service worker (after the first screen), in production builds only: in development
   * the worker would serve stale modules over Vite's. A new worker waits until the user chooses to
   * load it, the console never reloads by itself (docs/decisions/013-offline-console.md).
   */
  registerWorker(): void {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    void import('./worker-registration.ts')
      .then(({ registerWorker }) =>
        registerWorker(`${import.meta.env.BASE_URL}sw.js`, import.meta.env.BASE_URL, (activate) => {
          this.#activateUpdate = activate;
          for (const listener of this.#updateListeners) listener();
        }),
      )
      .catch((error: unknown) => {
        console.warn('Service worker registration failed', error);
      });
  }
}

const OfflineSupportContext = createContext<OfflineSupport | null>(null);

/** Gives the page's offline support to the components below, with the router or before it (main.tsx). */
export const OfflineSupportProvider = OfflineSupportContext.Provider;

export function useOfflineSupport(): OfflineSupport {
  const offline = useContext(OfflineSupportContext);
  if (!offline) throw new Error('useOfflineSupport needs an OfflineSupportProvider above it');
  return offline;
}

/** Whether a new build waits for the user's go ("A new version is available — Reload"). */
export function useUpdateWaiting(): boolean {
  const offline = useOfflineSupport();
  return useSyncExternalStore(offline.subscribeToUpdate, offline.isUpdateWaiting, () => false);
}
