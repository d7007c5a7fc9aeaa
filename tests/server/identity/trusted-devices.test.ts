import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { ADDRESS_POLICY, DEVICE_POLICY } from '../../../server/identity/throttle.ts';
import { DEVICE_TRUST_DAYS } from '../../../server/sign-in/trusted-devices.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-app.ts';
import { sendJson } from './requests.ts';

/**
 * Behind a reverse proxy the server does not trust, every caller shares the proxy's address (here,
 * `app.request()` has no address at all, which the server counts the same way). These are the
 * requests a stranger sends to lock everyone out, and the sign-ins that must still get through.
 */
describe('sign-in from a known device while the shared address is blocked', () => {
  let harness: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let now = new Date();
  beforeAll(async () => {
    harness = await createTestApp({ now: () => now });
    alice = await harness.createUser({ userName: 'alice' });
    bob = await harness.createUser({ userName: 'bob' });
  });
  beforeEach(async () => {
    now = new Date();
    await harness.deps.db.deleteFrom('sign_in_throttle').execute();
    await harness.deps.db.deleteFrom('trusted_devices').execute();
  });
  afterAll(() => harness.close());

  const signIn = (user: TestUser, options: { password?: string; cookie?: string } = {}) =>
    sendJson(
      harness,
      'POST',
      apiPaths.identity.login,
      { username: user.userName, password: options.password ?? user.password },
      options.cookie ? { cookie: options.cookie } : {},
    );

  /** `name=value` of the device cookie an answer sets. */
  const deviceCookieOf = (response: Response) => {
    const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith('trusted_device='));
    if (!header) throw new Error('The answer sets no device cookie.');
    return header;
  };
  const cookiePair = (header: string) => header.split(';')[0] ?? '';

  const lockOutTheAddress = async () => {
    for (let i = 0; i < ADDRESS_POLICY.maxFailures; i++) {
      const response = await sendJson(harness, 'POST', apiPaths.identity.login, {
        username: `made-up-${i}`,
        password: 'Not-the-password-1',
      });
      expect(response.status).toBe(401);
    }
  };

  it('keeps a user who signed in from this browser before able to sign in', async () => {
    const cookie = cookiePair(deviceCookieOf(await signIn(alice)));
    await lockOutTheAddress();

    expect((await signIn(alice)).status).toBe(429);
    expect((await signIn(alice, { cookie })).status).toBe(200);
  });

  it('leaves the device cookie to the browser and the sign-in endpoint alone', async () => {
    const header = deviceCookieOf(await signIn(alice));
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).toContain(`Path=${apiPaths.identity.login}`);
    expect(header).toContain(`Max-Age=${DEVICE_TRUST_DAYS * 24 * 3600}`);
  });

  it('stores only a hash of the device token', async () => {
    const token = cookiePair(deviceCookieOf(await signIn(alice))).split('=')[1] ?? '';
    const rows = await harness.deps.db.selectFrom('trusted_devices').select('token_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).not.toContain(token);
  });

  it("does not let one user's device cookie help another", async () => {
    const cookie = cookiePair(deviceCookieOf(await signIn(alice)));
    await lockOutTheAddress();
    expect((await signIn(bob, { cookie })).status).toBe(429);
  });

  it('keeps the devices of several users of one browser', async () => {
    const first = cookiePair(deviceCookieOf(await signIn(alice)));
    const both = cookiePair(deviceCookieOf(await signIn(bob, { cookie: first })));
    await lockOutTheAddress();
    expect((await signIn(alice, { cookie: both })).status).toBe(200);
    expect((await signIn(bob, { cookie: both })).status).toBe(200);
  });

  it('ignores a made-up or expired device token', async () => {
    await lockOutTheAddress();
    const forged = `trusted_device=${'A'.repeat(43)}`;
    expect((await signIn(alice, { cookie: forged })).status).toBe(429);

    now = new Date();
    await harness.deps.db.deleteFrom('sign_in_throttle').execute();
    const cookie = cookiePair(deviceCookieOf(await signIn(alice)));
    await lockOutTheAddress();
    now = new Date(now.getTime() + (DEVICE_TRUST_DAYS * 24 * 3600 + 1) * 1000);
    // The address block has passed by then; block it again at the new time.
    await lockOutTheAddress();
    expect((await signIn(alice, { cookie })).status).toBe(429);
  });

  it('takes the trust away from a device that keeps failing, without blocking the address', async () => {
    const cookie = cookiePair(deviceCookieOf(await signIn(alice)));
    for (let i = 0; i < DEVICE_POLICY.maxFailures; i++) {
      expect((await signIn(alice, { cookie, password: 'Not-the-password-1' })).status).toBe(401);
    }
    // Its failures did not count against the address or the pair: the user still gets in as unknown.
    expect((await signIn(alice, { cookie })).status).toBe(200);
    await lockOutTheAddress();
    for (let i = 0; i < DEVICE_POLICY.maxFailures; i++) {
      await signIn(alice, { cookie, password: 'Not-the-password-1' });
    }
    expect((await signIn(alice, { cookie })).status).toBe(429);
  });
});
