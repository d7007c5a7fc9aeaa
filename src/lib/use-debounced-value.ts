import { useEffect, useState } from 'react';

/** How long typing must pause before a text filter or a search asks the server. */
export const TYPING_DEBOUNCE_MS = 300;

/** `value` once it has stayed the same for `delayMs`: one request per pause in typing, not per key. */
export function useDebouncedValue<T>(value: T, delayMs = TYPING_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
