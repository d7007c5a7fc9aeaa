import type { OutboxCommand } from '../../contract/outbox.ts';

/**
 * The service worker's registration and the offer of a new build. A new worker waits until the user
 * chooses to load it ("A new version is available — Reload"); the console never reloads by itself,
 * and asks first when a form on the page holds unsaved changes.
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

function offerUpdate(activate: () => void): void {
  activateUpdate = activate;
  for (const listener of listeners) listener();
}

/** Lets the waiting worker take over; the page reloads once it controls the page. */
export function applyUpdate(): void {
  activateUpdate?.();
}

/** Forms that hold changes the DOM cannot show (controlled inputs, multi-step state) mark them here. */
const unsavedForms = new Set<string>();

export function markUnsavedChanges(formId: string, unsaved: boolean): void {
  if (unsaved) unsavedForms.add(formId);
  else unsavedForms.delete(formId);
}

function changed(element: Element): boolean {
  if (element instanceof HTMLInputElement) {
    if (['search', 'hidden', 'submit', 'button', 'reset'].includes(element.type)) return false;
    if (element.type === 'checkbox' || element.type === 'radio')
      return element.checked !== element.defaultChecked;
    return element.value !== element.defaultValue;
  }
  if (element instanceof HTMLTextAreaElement) return element.value !== element.defaultValue;
  if (element instanceof HTMLSelectElement) {
    return Array.from(element.options).some((option) => option.selected !== option.defaultSelected);
  }
  return false;
}

/**
 * Whether leaving the page now would lose what the user typed: a form field that differs from the
 * value it started with, or a form that marked its changes. Forms with `data-unsaved-ignore` (searches,
 * filters) do not count.
 */
export function hasUnsavedChanges(): boolean {
  if (unsavedForms.size > 0) return true;
  if (typeof document === 'undefined') return false;
  return Array.from(document.forms).some(
    (form) => form.dataset.unsavedIgnore === undefined && Array.from(form.elements).some(changed),
  );
}

/**
 * Registers the shell-caching worker in production builds only: in development it would serve stale
 * modules over Vite's. workbox-window loads after the first screen, which does not need it.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void import('workbox-window')
    .then(({ Workbox }) => {
      const workbox = new Workbox(`${import.meta.env.BASE_URL}sw.js`, { scope: import.meta.env.BASE_URL });
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
    })
    .catch((error: unknown) => {
      console.warn('Service worker registration failed', error);
    });
}
