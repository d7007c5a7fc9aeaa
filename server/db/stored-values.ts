/** A stored value of a closed set; anything else is a broken row, not a request error. */
export function oneOf<T extends string>(values: readonly T[], value: string, what: string): T {
  if (!(values as readonly string[]).includes(value)) throw new Error(`Unknown ${what} "${value}".`);
  return value as T;
}
