/**
 * `%text%` for (I)LIKE, with `\`, `%` and `_` in `text` matched literally (`\` is LIKE's escape):
 * a filter typed by a user matches what it says, never everything.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
