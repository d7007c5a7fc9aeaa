import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { getAccessToken } from '../../../src/lib/access-token.ts';
import {
  LOST_RENEWAL_RETRY_MS,
  NO_SESSION_HOLDS_MS,
  nextSessionState,
  REFRESH_FLOOR_MS,
  SessionController,
} from '../../../src/lib/session.ts';
import { apiError, json, mockApi } from '../support.tsx';

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

/** A page whose secure layout has not started the offline support: an unreachable renewal is a lost session. */
const listeners = {
  ended: () => undefined,
  lost: () => undefined,
  carriesOnOffline: () => false,
  closeOffline: () => Promise.resolve(),
};
let session = new SessionController(listeners);

beforeEach(() => {
  session = new SessionController(listeners);
});
afterEach(() => session.forgetToken());

describe('renewing the access token', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
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
    session.start(serverTokens(1, { statesLifetime: true }));

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
    session.start(serverTokens(1, { statesLifetime: false }));

    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.refreshes()).toBe(0);

    await vi.advanceTimersByTimeAsync(60_000 - 5_000);
    expect(server.refreshes()).toBeLessThanOrEqual(60_000 / REFRESH_FLOOR_MS);
  });
});

describe('the session state machine', () => {
  it.each([
    ['signed-out', 'signed-in', 'online'],
    ['signed-out', 'unreachable', 'offline'],
    ['online', 'unreachable', 'offline'],
    ['offline', 'renewed', 'online'],
    ['offline', 'refused', 'signed-out'],
    ['online', 'signing-out', 'ending'],
    ['ending', 'renewed', 'ending'],
    ['ending', 'refused', 'ending'],
    ['ending', 'ended', 'signed-out'],
    ['ending', 'signed-in', 'online'],
  ] as const)('goes from %s on %s to %s', (from, event, to) => {
    expect(nextSessionState(from, event)).toBe(to);
  });

  it('does not take back a token that a renewal brings while the user signs out', async () => {
    let answerRefresh: (response: Response) => void = () => undefined;
    mockApi({
      'POST /imauth/api/v1/refresh': () =>
        new Promise<Response>((resolve) => {
          answerRefresh = resolve;
        }),
      'POST /imauth/api/v1/logout': () => new Response(null, { status: 204 }),
    });
    session.start({ access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z', expires_in: 600 });
    const renewal = session.refresh();
    const signOut = session.revoke();
    await vi.waitFor(() => expect(answerRefresh).not.toBe(undefined));
    answerRefresh(json({ access_token: 'token-2', expires_at: '2999-01-01T00:00:00Z', expires_in: 600 }));
    await Promise.all([renewal, signOut]);
    expect(getAccessToken()).toBeNull();
    expect(session.state).toBe('ending');
    await session.end();
    expect(session.state).toBe('signed-out');
  });

  it('asks once more after a renewal that got no answer, whose server may have renewed meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    session.start({ access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z', expires_in: 600 });
    const asked: number[] = [];
    mockApi({
      'POST /imauth/api/v1/refresh': () => {
        asked.push(asked.length + 1);
        return asked.length === 1
          ? Promise.reject(new TypeError('Failed to fetch'))
          : json(serverTokens(2, { statesLifetime: true }));
      },
    });
    const renewal = session.refresh();
    await vi.advanceTimersByTimeAsync(LOST_RENEWAL_RETRY_MS - 1);
    expect(asked).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await renewal).toBe('renewed');
    expect(asked).toEqual([1, 2]);
    expect(getAccessToken()).toBe('token-2');
  });

  it('asks only once while the browser knows it is offline, and not again after a refusal', async () => {
    session.start({ access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z', expires_in: 600 });
    let asked = 0;
    mockApi({
      'POST /imauth/api/v1/refresh': () => {
        asked += 1;
        return apiError(401, 'No session.');
      },
    });
    expect(await session.refresh()).toBe('refused');
    expect(asked).toBe(1);
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      mockApi({
        'POST /imauth/api/v1/refresh': () => {
          asked += 1;
          return Promise.reject(new TypeError('Failed to fetch'));
        },
      });
      expect(await session.refresh()).toBe('unreachable');
      expect(asked).toBe(2);
    } finally {
      online.mockRestore();
    }
  });

  it('tells its watchers of every event once it is applied, a renewal that finds no server again too', async () => {
    const heard: string[] = [];
    session.watch((state, previous) => heard.push(`${previous} → ${state}, token ${getAccessToken()}`));
    session.start({ access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z', expires_in: 600 });
    mockApi({ 'POST /imauth/api/v1/refresh': () => Promise.reject(new TypeError('Failed to fetch')) });
    expect(await session.refresh()).toBe('unreachable');
    expect(await session.refresh()).toBe('unreachable');
    mockApi({ 'POST /imauth/api/v1/refresh': () => json(serverTokens(2, { statesLifetime: true })) });
    expect(await session.refresh()).toBe('renewed');
    expect(heard).toEqual([
      'signed-out → online, token token-1',
      'online → offline, token null',
      'offline → offline, token null',
      'offline → online, token token-2',
    ]);
  });
});

describe('asking whether the page has a session', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('believes a refusal for a page start, and asks the refresh cookie again after it or on a renewal', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let refreshes = 0;
    mockApi({
      'POST /imauth/api/v1/refresh': () => {
        refreshes += 1;
        return apiError(401, 'No session.');
      },
    });
    // The secure layout and the sign-in guard it leads to: one request between them.
    expect(await session.check()).toBe('refused');
    expect(await session.ensure()).toBe(false);
    expect(refreshes).toBe(1);
    // A renewal always asks.
    expect(await session.refresh()).toBe('refused');
    expect(refreshes).toBe(2);
    // Another tab may have signed in since: later, the cookie is asked again.
    vi.setSystemTime(Date.now() + NO_SESSION_HOLDS_MS);
    expect(await session.check()).toBe('refused');
    expect(refreshes).toBe(3);
  });

  it('shares a check in flight and forgets a refusal once a sign-in brings a token', async () => {
    let refreshes = 0;
    mockApi({
      'POST /imauth/api/v1/refresh': () => {
        refreshes += 1;
        return apiError(401, 'No session.');
      },
    });
    const [first, second] = await Promise.all([session.check(), session.check()]);
    expect([first, second, refreshes]).toEqual(['refused', 'refused', 1]);
    session.start({ access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z', expires_in: 600 });
    expect(await session.check()).toBe('renewed');
    session.forgetToken();
    expect(await session.check()).toBe('refused');
    expect(refreshes).toBe(2);
  });
});
