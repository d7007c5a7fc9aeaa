import { describe, expect, it } from 'vitest';
import { desktopSystem, detectPlatform, type NavigatorLike } from '../../../src/lib/platform.ts';

const desktopSystemOf = (navigator: NavigatorLike & { platform?: string }) =>
  desktopSystem(detectPlatform(navigator));

describe('the platform detection', () => {
  it.each([
    [{ userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' }, { system: 'windows', mobile: false }],
    [{ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)' }, { system: 'mac', mobile: false }],
    [{ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' }, { system: 'linux', mobile: false }],
    [{ userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile' }, { system: 'other', mobile: true }],
    [
      { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile' },
      { system: 'other', mobile: true },
    ],
    [{ userAgent: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0)' }, { system: 'other', mobile: false }],
    [
      { userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', maxTouchPoints: 5 },
      { system: 'other', mobile: true },
    ],
    [
      { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', userAgentData: { platform: 'Android', mobile: true } },
      { system: 'other', mobile: true },
    ],
    [
      { userAgent: 'Mozilla/5.0 (Windows NT 10.0)', userAgentData: { platform: 'macOS', mobile: false } },
      { system: 'mac', mobile: false },
    ],
  ])('reads %o as %o', (navigator, expected) => {
    expect(detectPlatform(navigator)).toEqual(expected);
  });
});

describe('the desktop system', () => {
  it('is read from the client hints, the platform or the user agent', () => {
    expect(
      desktopSystemOf({ userAgent: 'Mozilla/5.0', userAgentData: { platform: 'Windows', mobile: false } }),
    ).toBe('windows');
    expect(
      desktopSystemOf({
        userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15',
        platform: 'MacIntel',
      }),
    ).toBe('mac');
    expect(
      desktopSystemOf({
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36',
        platform: 'Linux x86_64',
      }),
    ).toBe('linux');
  });

  it('is none the catalogue serves on phones, tablets and Chromebooks', () => {
    expect(
      desktopSystemOf({ userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8)', platform: 'Linux armv8l' }),
    ).toBeNull();
    expect(
      desktopSystemOf({
        userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
        platform: 'iPhone',
      }),
    ).toBeNull();
    // iPadOS presents itself as a Mac, but with a touch screen.
    expect(
      desktopSystemOf({
        userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)',
        platform: 'MacIntel',
        maxTouchPoints: 5,
      }),
    ).toBeNull();
    expect(
      desktopSystemOf({ userAgent: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0)', platform: 'Linux x86_64' }),
    ).toBeNull();
  });
});
