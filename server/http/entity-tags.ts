/**
 * Row versions as HTTP entity tags (RFC 9110 §8.8.3) and the If-Match precondition (§13.1.1), for
 * every editable resource: the ETag is the quoted version; a change without If-Match is
 * unconditional, so callers that never read an ETag keep working.
 */
export function entityTag(version: number): string {
  return `"${version}"`;
}

/** `*`, or a comma-separated list of strong or weak entity tags. */
const IF_MATCH_SYNTAX = /^\s*(?:\*|(?:W\/)?"[^"]*"(?:\s*,\s*(?:W\/)?"[^"]*")*)\s*$/;

/** Whether an If-Match header is `*` or a list of entity tags; absent counts as well formed. */
export function isWellFormedIfMatch(header: string | undefined): boolean {
  return header === undefined || IF_MATCH_SYNTAX.test(header);
}

/**
 * Whether a change on `version` may proceed: no header, `*`, or the current tag listed. The
 * comparison is strong, as If-Match requires, so a weak tag never matches.
 */
export function ifMatchAdmits(header: string | undefined, version: number): boolean {
  if (header === undefined) return true;
  const current = entityTag(version);
  return header.split(',').some((tag) => tag.trim() === '*' || tag.trim() === current);
}
