/**
 * Registers the shell-caching worker in production builds only: in development it would serve stale
 * modules over Vite's. workbox-window loads after the first screen, which does not need it.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void import('workbox-window')
    .then(({ Workbox }) =>
      new Workbox(`${import.meta.env.BASE_URL}sw.js`, { scope: import.meta.env.BASE_URL }).register(),
    )
    .catch((error: unknown) => {
      console.warn('Service worker registration failed', error);
    });
}
