import { CLIENT_TOOL_OPERATING_SYSTEMS, type ClientToolOs } from '../../../contract/schemas/client-tools.ts';

interface NavigatorWithHints {
  userAgent: string;
  platform?: string;
  userAgentData?: { platform?: string };
}

/**
 * The operating system the console runs on, by the browser's own hints (User-Agent Client Hints
 * where offered, else the platform and user-agent strings); null when it is none the catalogue
 * serves (a phone, a tablet: iPadOS reports "MacIntel" but has touch points).
 */
export function visitorOs(
  browser: NavigatorWithHints & { maxTouchPoints?: number } = navigator,
): ClientToolOs | null {
  const hint =
    `${browser.userAgentData?.platform ?? ''} ${browser.platform ?? ''} ${browser.userAgent}`.toLowerCase();
  if (/android|iphone|ipad|ipod|\bcros\b/.test(hint)) return null;
  if (/\bwin/.test(hint)) return 'windows';
  if (/mac/.test(hint)) return (browser.maxTouchPoints ?? 0) > 1 ? null : 'mac';
  if (/linux|x11|bsd/.test(hint)) return 'linux';
  return null;
}

/** The systems in the catalogue's order, the visitor's first. */
export function operatingSystemsFirst(first: ClientToolOs | null): ClientToolOs[] {
  return [...CLIENT_TOOL_OPERATING_SYSTEMS].sort((a, b) => Number(b === first) - Number(a === first));
}
