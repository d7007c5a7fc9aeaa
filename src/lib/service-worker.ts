import { Workbox } from 'workbox-window';

/**
 * Registers the shell-caching worker in production builds only: in development it would serve stale
 * modules over Vite's.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const workbox = new Workbox(`${import.meta.env.BASE_URL}sw.js`, { scope: import.meta.env.BASE_URL });
  workbox.register().catch((error: unknown) => {
    console.warn('Service worker registration failed', error);
  });
}
