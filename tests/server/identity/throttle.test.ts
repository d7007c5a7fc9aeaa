import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADDRESS_POLICY,
  checkSignInThrottle,
  clearSignInFailures,
  DEVICE_POLICY,
  PAIR_POLICY,
  pairBackOffSeconds,
  recordSignInFailure,
  type SignInAttempt,
  USER_POLICY,
  userDelayMs,
} from '../../../server/identity/throttle.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

describe('back-off schedule', () => {
  it('lets the first few failures of a pair through, then doubles the wait up to its ceiling', () => {
    const free = PAIR_POLICY.freeFailures;
    expect(pairBackOffSeconds(free)).toBe(0);
    expect(pairBackOffSeconds(free + 1)).toBe(30);
    expect(pairBackOffSeconds(free + 2)).toBe(60);
    expect(pairBackOffSeconds(free + 3)).toBe(120);
    expect(pairBackOffSeconds(free + 50)).toBe(PAIR_POLICY.maxBackOffSeconds);
  });

  it('only ever delays a user under attack by a couple of seconds', () => {
    expect(userDelayMs(USER_POLICY.freeFailures)).toBe(0);
    expect(userDelayMs(USER_POLICY.freeFailures + 1)).toBe(USER_POLICY.delayStepMs);
    expect(userDelayMs(10_000)).toBe(USER_POLICY.maxDelayMs);
  });
});

describe('sign-in throttling', () => {
  let harness: TestApp;
  let now: Date;
  beforeAll(async () => {
    harness = await createTestApp({ now: () => now });
  });
  beforeEach(async () => {
    now = new Date('2026-03-01T10:00:00Z');
    await harness.deps.db.deleteFrom('sign_in_throttle').execute();
  });
  afterAll(() => harness.close());

  const check = (attempt: SignInAttempt) => checkSignInThrottle(harness.deps.db, now, attempt);
  /** Whether the attempt is let through as the user's known device. */
  const trusted = async (attempt: SignInAttempt) => {
    const verdict = await check(attempt);
    return verdict.kind === 'allowed' && verdict.trustedDevice;
  };
  const fail = (attempt: SignInAttempt, judged = { trustedDevice: false }) =>
    recordSignInFailure(harness.deps.db, now, attempt, judged);
  const later = (seconds: number) => {
    now = new Date(now.getTime() + seconds * 1000);
  };

  it('blocks a user and address pair after repeated failures, for 30 s, then for twice as long', async () => {
    const attempt = { userName: 'alice', address: '192.0.2.10' };
    for (let i = 0; i < PAIR_POLICY.freeFailures; i++) await fail(attempt);
    expect(await check(attempt)).toEqual({ kind: 'allowed', delayMs: 0, trustedDevice: false });

    await fail(attempt);
    expect(await check(attempt)).toEqual({ kind: 'blocked', retryAfterSeconds: 30 });
    later(30);
    expect((await check(attempt)).kind).toBe('allowed');

    await fail(attempt);
    expect(await check(attempt)).toEqual({ kind: 'blocked', retryAfterSeconds: 60 });
  });

  it('counts user names case-insensitively', async () => {
    for (let i = 0; i <= PAIR_POLICY.freeFailures; i++) {
      await fail({ userName: i % 2 ? 'Alice' : 'ALICE', address: '192.0.2.10' });
    }
    expect((await check({ userName: 'alice', address: '192.0.2.10' })).kind).toBe('blocked');
  });

  it('forgets the pair after a successful sign-in', async () => {
    const attempt = { userName: 'alice', address: '192.0.2.10' };
    for (let i = 0; i <= PAIR_POLICY.freeFailures; i++) await fail(attempt);
    await clearSignInFailures(harness.deps.db, attempt);
    expect(await check(attempt)).toEqual({ kind: 'allowed', delayMs: 0, trustedDevice: false });
  });

  it('never blocks the real user at their own address while an attacker hammers them from many others', async () => {
    for (let i = 0; i < 200; i++) await fail({ userName: 'alice', address: `198.51.100.${i % 100}` });
    const verdict = await check({ userName: 'alice', address: '192.0.2.10' });
    expect(verdict).toEqual({ kind: 'allowed', delayMs: USER_POLICY.maxDelayMs, trustedDevice: false });
  });

  it('lets the real user in after their own back-off even while the attack goes on', async () => {
    const own = { userName: 'alice', address: '192.0.2.10' };
    for (let i = 0; i <= PAIR_POLICY.freeFailures; i++) await fail(own);
    for (let i = 0; i < 50; i++) await fail({ userName: 'alice', address: `198.51.100.${i}` });
    expect((await check(own)).kind).toBe('blocked');

    later(pairBackOffSeconds(PAIR_POLICY.freeFailures + 1));
    for (let i = 0; i < 50; i++) await fail({ userName: 'alice', address: `198.51.100.${i}` });
    expect((await check(own)).kind).toBe('allowed');
  });

  it('blocks an address spraying guesses over many users until its window ends', async () => {
    const address = '203.0.113.7';
    for (let i = 0; i < ADDRESS_POLICY.maxFailures - 1; i++) await fail({ userName: `user-${i}`, address });
    expect((await check({ userName: 'someone-else', address })).kind).toBe('allowed');

    await fail({ userName: 'one-more', address });
    expect(await check({ userName: 'someone-else', address })).toEqual({
      kind: 'blocked',
      retryAfterSeconds: ADDRESS_POLICY.windowSeconds,
    });
    expect((await check({ userName: 'someone-else', address: '192.0.2.10' })).kind).toBe('allowed');

    later(ADDRESS_POLICY.windowSeconds);
    expect((await check({ userName: 'someone-else', address })).kind).toBe('allowed');
  });

  it('starts counting again once a window has passed', async () => {
    const attempt = { userName: 'bob', address: '192.0.2.20' };
    for (let i = 0; i < PAIR_POLICY.freeFailures; i++) await fail(attempt);
    later(PAIR_POLICY.windowSeconds);
    await fail(attempt);
    expect((await check(attempt)).kind).toBe('allowed');
  });

  it('counts every failure when several arrive at once', async () => {
    const attempt = { userName: 'carol', address: '192.0.2.30' };
    await Promise.all(Array.from({ length: 8 }, () => fail(attempt)));
    const row = await harness.deps.db
      .selectFrom('sign_in_throttle')
      .select('failures')
      .where('key', '=', 'pair:carol|192.0.2.30')
      .executeTakeFirstOrThrow();
    expect(row.failures).toBe(8);
  });

  describe('from a device the user signed in from before', () => {
    const shared = '203.0.113.50';
    const fromDevice = { userName: 'alice', address: shared, deviceId: 'device-of-alice' };
    const asDevice = { trustedDevice: true };
    const blockAddress = async () => {
      for (let i = 0; i < ADDRESS_POLICY.maxFailures; i++)
        await fail({ userName: `made-up-${i}`, address: shared });
    };

    it('lets the user try while everyone else at the shared address is blocked', async () => {
      await blockAddress();
      expect((await check({ userName: 'alice', address: shared })).kind).toBe('blocked');
      expect(await check(fromDevice)).toEqual({ kind: 'allowed', delayMs: 0, trustedDevice: true });
    });

    it('is not stopped by the pair back-off or the delay others set off against the user', async () => {
      for (let i = 0; i <= PAIR_POLICY.freeFailures; i++) await fail({ userName: 'alice', address: shared });
      for (let i = 0; i < 50; i++) await fail({ userName: 'alice', address: `198.51.100.${i}` });
      expect(await check(fromDevice)).toEqual({ kind: 'allowed', delayMs: 0, trustedDevice: true });
    });

    it("counts the device's own failures against it alone, and judges it as unknown once it has too many", async () => {
      for (let i = 0; i < DEVICE_POLICY.maxFailures - 1; i++) await fail(fromDevice, asDevice);
      expect((await check({ userName: 'alice', address: shared })).kind).toBe('allowed');
      expect(await trusted(fromDevice)).toBe(true);

      await fail(fromDevice, asDevice);
      expect(await check(fromDevice)).toEqual({ kind: 'allowed', delayMs: 0, trustedDevice: false });
      await blockAddress();
      expect((await check(fromDevice)).kind).toBe('blocked');

      later(DEVICE_POLICY.windowSeconds);
      expect(await trusted(fromDevice)).toBe(true);
    });

    it("forgets the device's failures after a successful sign-in", async () => {
      for (let i = 0; i < DEVICE_POLICY.maxFailures - 1; i++) await fail(fromDevice, asDevice);
      await clearSignInFailures(harness.deps.db, fromDevice);
      await fail(fromDevice, asDevice);
      expect(await trusted(fromDevice)).toBe(true);
    });
  });
});
