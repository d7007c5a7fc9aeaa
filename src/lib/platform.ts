/**
 * The computer the console runs on, from the browser's own hints: User-Agent Client Hints where the
 * browser offers them, the user-agent string otherwise. The trust agent's gate and the client tools
 * catalogue both ask.
 */
export type DesktopSystem = 'mac' | 'windows' | 'linux';
export interface PlatformInfo {
  system: DesktopSystem | 'other';
  mobile: boolean;
}

/** The parts of `navigator` the detection reads; Client Hints first, the user-agent string otherwise. */
export interface NavigatorLike {
  userAgent: string;
  /** iPadOS reports itself as a Mac; its touch points give it away. */
  maxTouchPoints?: number;
  userAgentData?: { platform: string; mobile: boolean } | undefined;
}

// TypeScript's Navigator does not know Client Hints yet, hence the cast of the default.
export function detectPlatform(
  navigator: NavigatorLike = globalThis.navigator as unknown as NavigatorLike,
): PlatformInfo {
  const hints = navigator.userAgentData;
  const name = (hints?.platform || navigator.userAgent).toLowerCase();
  const touchMac = /mac/.test(name) && (navigator.maxTouchPoints ?? 0) > 1;
  // Order matters: Android's user agent says Linux, iOS's says "like Mac OS X".
  const handheld = /android|iphone|ipad|ipod|ios/.test(name) || touchMac;
  const mobile = hints?.mobile === true || handheld || /mobile/.test(navigator.userAgent.toLowerCase());
  let system: PlatformInfo['system'] = 'other';
  if (handheld || /cros|chrome os/.test(name)) system = 'other';
  else if (/mac/.test(name)) system = 'mac';
  else if (/win/.test(name)) system = 'windows';
  else if (/linux|x11/.test(name)) system = 'linux';
  return { system, mobile };
}

/** The desktop system of a computer, or null for a phone, a tablet or a system no tool is made for. */
export function desktopSystem(platform: PlatformInfo): DesktopSystem | null {
  return platform.mobile || platform.system === 'other' ? null : platform.system;
}
