import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAccessToken } from '../../../src/lib/access-token.ts';
import { configureSession, REFRESH_FLOOR_MS, startSession } from '../../../src/lib/session.ts';
import { json, mockApi } from '../support.tsx';

const TOKEN_LIFETIME_S = 600;
const HOUR_MS = 60 * 60_000;
const SERVER_NOW = Date.parse('2026-11-23T12:00:00Z');

/** The server's token answer, stamped by the server's clock, which the browser's differs from. */
function serverTokens(n: number, options: { statesLifetime: boolean }) {
  return {
    access_token: `token-${n}`,
    expires_at: new Date(SERVER_NOW + TOKEN_LIFETIME_S * 1000).toISOString(),
    ...(options.statesLifetime ? { expires_in: TOKEN_LIFETIME_S } : {}),
  };
}

function refreshingServer(options: { statesLifetime: boolean }) {
  let refreshes = 0;
  const api = mockApi({
    'POST /imauth/api/v1/refresh': () => {
      refreshes += 1;
      return json(serverTokens(refreshes + 1, options));
    },
  });
  return { api, refreshes: () => refreshes };
}

describe('renewing the access token', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    configureSession({ ended: () => undefined, lost: () => undefined });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['an hour ahead of', HOUR_MS],
    ['an hour behind', -HOUR_MS],
  ])('renews once per lifetime with the computer clock %s the server', async (_label, skew) => {
    vi.setSystemTime(SERVER_NOW + skew);
    const server = refreshingServer({ statesLifetime: true });
    startSession(serverTokens(1, { statesLifetime: true }));

    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.refreshes()).toBe(0);

    // 25 minutes hold two whole lifetimes of ten minutes: two renewals, each on time.
    await vi.advanceTimersByTimeAsync(25 * 60_000 - 5_000);
    expect(server.refreshes()).toBe(2);
    expect(getAccessToken()).toBe('token-3');
  });

  it('never renews sooner than the floor when the server states no lifetime and the clocks disagree', async () => {
    vi.setSystemTime(SERVER_NOW + 11 * 60_000);
    const server = refreshingServer({ statesLifetime: false });
    startSession(serverTokens(1, { statesLifetime: false }));

    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.refreshes()).toBe(0);

    await vi.advanceTimersByTimeAsync(60_000 - 5_000);
    expect(server.refreshes()).toBeLessThanOrEqual(60_000 / REFRESH_FLOOR_MS);
  });
});
