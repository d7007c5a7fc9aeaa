/**
 * Leaves the single-page app for an address the server gave (licence expiry page, external profile).
 * Only http(s) and same-origin paths are followed, never `javascript:` or other schemes.
 */
export function isFollowableUrl(url: string): boolean {
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

export function leaveTo(url: string, fallback: string): void {
  window.location.assign(isFollowableUrl(url) ? url : fallback);
}
