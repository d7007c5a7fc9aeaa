// @vitest-environment jsdom
import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OfflineSupport } from '../../../../src/lib/offline/support.ts';
import { LOST_RENEWAL_RETRY_MS, SessionController } from '../../../../src/lib/session.ts';
import { importSecureSessions } from '../../support.tsx';
import { plainQueryClient } from './offline-support.ts';

/** A page's session and offline support, wired as main.tsx wires them. */
function page(loadQueryClient = () => Promise.resolve(plainQueryClient())) {
  const lost = vi.fn();
  const session = new SessionController({
    ended: () => undefined,
    lost,
    carriesOnOffline: () => offline.carriesOn(),
    closeOffline: (keepOutbox) => offline.close(keepOutbox),
  });
  const offline = new OfflineSupport({
    session,
    loadQueryClient,
    loadStaleAfter: () => Promise.resolve([]),
    notify: () => undefined,
  });
  return { session, offline, lost };
}

afterEach(() => {
  vi.unstubAllGlobals();
  onlineManager.setOnline(true);
});

describe('the offline support', () => {
  it('carries nothing on and destroys nothing before the secure layout has loaded it', async () => {
    const { offline } = page();
    expect(offline.carriesOn()).toBe(false);
    await expect(offline.close(true)).resolves.toBeUndefined();
    expect(offline.isUpdateWaiting()).toBe(false);
  });

  it('loads its secure sessions once, and again after a download that failed', async () => {
    const loadQueryClient = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(plainQueryClient());
    const { offline } = page(loadQueryClient);
    await expect(offline.load(importSecureSessions)).rejects.toThrow('Failed to fetch');
    const sessions = await offline.load(importSecureSessions);
    expect(await offline.load(importSecureSessions)).toBe(sessions);
    expect(loadQueryClient).toHaveBeenCalledTimes(2);
  });

  it('leaves a session whose renewal found no server to sign-in while no secure session runs', async () => {
    vi.useFakeTimers();
    try {
      const { session, offline, lost } = page();
      await offline.load(importSecureSessions);
      vi.stubGlobal(
        'fetch',
        vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
      );
      session.start({ access_token: 'token-1', expires_at: '2999-01-01T00:00:00Z', expires_in: 60 });
      // The renewal at the token's end, and the one more try after an answer that never came.
      await vi.advanceTimersByTimeAsync(60_000 + LOST_RENEWAL_RETRY_MS);
      expect(session.state).toBe('offline');
      // The state still reaches the query library: nothing fetches until the server answers.
      expect(onlineManager.isOnline()).toBe(false);
      expect(lost).toHaveBeenCalledTimes(1);
      session.forgetToken();
    } finally {
      vi.useRealTimers();
    }
  });
});
