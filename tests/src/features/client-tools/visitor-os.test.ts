import { describe, expect, it } from 'vitest';
import { operatingSystemsFirst, visitorOs } from '../../../../src/features/client-tools/visitor-os.ts';

describe("the visitor's operating system", () => {
  it('is read from the client hints, the platform or the user agent', () => {
    expect(visitorOs({ userAgent: 'Mozilla/5.0', userAgentData: { platform: 'Windows' } })).toBe('windows');
    expect(
      visitorOs({
        userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15',
        platform: 'MacIntel',
      }),
    ).toBe('mac');
    expect(
      visitorOs({
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36',
        platform: 'Linux x86_64',
      }),
    ).toBe('linux');
  });

  it('is none the catalogue serves on phones, tablets and Chromebooks', () => {
    expect(
      visitorOs({ userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8)', platform: 'Linux armv8l' }),
    ).toBeNull();
    expect(
      visitorOs({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', platform: 'iPhone' }),
    ).toBeNull();
    // iPadOS presents itself as a Mac, but with a touch screen.
    expect(
      visitorOs({
        userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)',
        platform: 'MacIntel',
        maxTouchPoints: 5,
      }),
    ).toBeNull();
    expect(
      visitorOs({ userAgent: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0)', platform: 'Linux x86_64' }),
    ).toBeNull();
  });

  it("puts the visitor's system first and keeps the others in order", () => {
    expect(operatingSystemsFirst('linux')).toEqual(['linux', 'windows', 'mac']);
    expect(operatingSystemsFirst('mac')).toEqual(['mac', 'windows', 'linux']);
    expect(operatingSystemsFirst(null)).toEqual(['windows', 'mac', 'linux']);
  });
});
