import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

const subscribe = (listener: () => void) => onlineManager.subscribe(listener);
const isOnline = () => onlineManager.isOnline();

/**
 * Whether the console can reach the server now, as the query library sees it: the browser's
 * connection events, and the session's own `offline` state (an offline start or a refresh that
 * found no server), which the secure sessions hand it.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}
