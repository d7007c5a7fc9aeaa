import { Workbox } from 'workbox-window';
import type { OutboxCommand } from '../../../contract/outbox.ts';

/**
 * Registers the service worker with workbox-window. A new build that installs waits: `offerUpdate`
 * receives the way to activate it, which the page calls only when the user chose to reload, and the
 * page reloads once the new worker controls it, never before.
 */
export function registerWorker(url: string, scope: string, offerUpdate: (activate: () => void) => void) {
  const workbox = new Workbox(url, { scope });
  let reloadWhenControlling = false;
  workbox.addEventListener('controlling', () => {
    if (reloadWhenControlling) window.location.reload();
  });
  workbox.addEventListener('waiting', (event) => {
    const waiting = event.sw;
    offerUpdate(() => {
      reloadWhenControlling = true;
      const command: OutboxCommand = { type: 'skip-waiting' };
      waiting?.postMessage(command);
    });
  });
  return workbox.register();
}
