/**
 * The service worker's registration and the offer of a new build ("A new version is available —
 * Reload"): a new worker waits until the user chooses to load it, the console never reloads by itself
 * (docs/decisions/013-offline-console.md). The registration itself loads after the first screen.
 */

type Listener = () => void;
const listeners = new Set<Listener>();
let activateUpdate: (() => void) | null = null;

export function subscribeToUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a new build is installed and waiting for the user's go. */
export function isUpdateWaiting(): boolean {
  return activateUpdate !== null;
}

/** Lets the waiting worker take over; the page reloads once it controls the page. */
export function applyUpdate(): void {
  activateUpdate?.();
}

function offerUpdate(activate: () => void): void {
  activateUpdate = activate;
  for (const listener of listeners) listener();
}

/** In production builds only: in development the worker would serve stale modules over Vite's. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void import('./offline/worker-registration.ts')
    .then(({ registerWorker }) =>
      registerWorker(`${import.meta.env.BASE_URL}sw.js`, import.meta.env.BASE_URL, offerUpdate),
    )
    .catch((error: unknown) => {
      console.warn('Service worker registration failed', error);
    });
}
