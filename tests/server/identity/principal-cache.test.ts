import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { ChangeFeed, NotificationHandlers, NotificationSource } from '../../../server/db/connection.ts';
import { WriteObserver } from '../../../server/db/write-observer.ts';
import type { Principal } from '../../../server/identity/principal.ts';
import { PRINCIPAL_CACHE_TTL_MS, PrincipalCache } from '../../../server/identity/principal-cache.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { send, signIn } from './requests.ts';

/**
 * Callers of sessions are remembered briefly per process (server/identity/principal-cache.ts); every
 * change to what they are made of must still take effect: at once when this process made it, and as
 * soon as the database's notification arrives when another did (here: the same database handle
 * without this process's write observer, as another process's would be), well before the cache's own
 * time limit.
 */

/** Well under `PRINCIPAL_CACHE_TTL_MS`: passing within it shows the notification, not the time limit, acted. */
const NOTIFIED_WITHIN_MS = PRINCIPAL_CACHE_TTL_MS / 2;

describe('a remembered caller on the platform', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  /** A new system administrator, signed in, whose caller is remembered after one request. */
  async function rememberedAdministrator() {
    const user = await harness.createUser({ accessScope: 'system' });
    const { accessToken } = await signIn(harness, user);
    const listStatus = async () =>
      (await send(harness, 'GET', apiPaths.tenants.list, { token: accessToken })).status;
    expect(await listStatus()).toBe(200);
    expect(await listStatus()).toBe(200);
    return { user, accessToken, listStatus };
  }

  /** The database as another process writes to it: this process's write observer does not see it. */
  const elsewhere = () => harness.deps.db.withoutPlugins();

  it('is refused at once after signing out', async () => {
    const { accessToken, listStatus } = await rememberedAdministrator();
    expect((await send(harness, 'POST', apiPaths.identity.logout, { token: accessToken })).status).toBe(204);
    expect(await listStatus()).toBe(401);
  });

  it('is refused at once when this process revokes its session', async () => {
    const { user, listStatus } = await rememberedAdministrator();
    await harness.deps.db
      .updateTable('sessions')
      .set({ revoked_at: new Date(), revoked_reason: 'admin' })
      .where('user_id', '=', user.id)
      .execute();
    expect(await listStatus()).toBe(401);
  });

  it('is refused once its session is revoked elsewhere', async () => {
    const { user, listStatus } = await rememberedAdministrator();
    await elsewhere()
      .updateTable('sessions')
      .set({ revoked_at: new Date(), revoked_reason: 'admin' })
      .where('user_id', '=', user.id)
      .execute();
    await expect.poll(listStatus, { timeout: NOTIFIED_WITHIN_MS, interval: 20 }).toBe(401);
  });

  it('loses a permission once its roles are taken away elsewhere', async () => {
    const { user, listStatus } = await rememberedAdministrator();
    await elsewhere().deleteFrom('user_roles').where('user_id', '=', user.id).execute();
    await expect.poll(listStatus, { timeout: NOTIFIED_WITHIN_MS, interval: 20 }).toBe(403);
  });

  it('loses a permission once its role stops granting it elsewhere', async () => {
    const { user, listStatus } = await rememberedAdministrator();
    const roleIds = harness.deps.db.selectFrom('user_roles').select('role_id').where('user_id', '=', user.id);
    const roles = await harness.deps.db
      .selectFrom('roles')
      .select(['id', 'permissions'])
      .where('id', 'in', roleIds)
      .execute();
    await elsewhere()
      .updateTable('roles')
      .set({ permissions: sql`permissions - 'VIEW_ACCOUNT'` })
      .where('id', 'in', roleIds)
      .execute();
    try {
      await expect.poll(listStatus, { timeout: NOTIFIED_WITHIN_MS, interval: 20 }).toBe(403);
    } finally {
      for (const role of roles) {
        await harness.deps.db
          .updateTable('roles')
          .set({ permissions: JSON.stringify(role.permissions) })
          .where('id', '=', role.id)
          .execute();
      }
    }
  });

  it('is refused once its user is disabled elsewhere', async () => {
    const { user, listStatus } = await rememberedAdministrator();
    await elsewhere().updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
    await expect.poll(listStatus, { timeout: NOTIFIED_WITHIN_MS, interval: 20 }).toBe(401);
  });
});

/** A change feed the test drives by hand. */
function fakeSource() {
  let handlers: NotificationHandlers | null = null;
  let fail = false;
  const writes = new WriteObserver();
  const listen: NotificationSource = async (_channel, given) => {
    if (fail) throw new Error('No connection.');
    handlers = given;
    return async () => {
      handlers = null;
    };
  };
  const feed: ChangeFeed = { listen, writes };
  return {
    feed,
    /** A statement of this process that may change data, as Kysely hands it to the observer. */
    write: () =>
      writes.transformQuery({ queryId: { queryId: 'write' }, node: { kind: 'DeleteQueryNode' } as never }),
    notify: (payload: string) => handlers?.notified(payload),
    lose: () => {
      handlers?.lost();
      handlers = null;
    },
    failNext: (value: boolean) => {
      fail = value;
    },
  };
}

const principal = (userId: string): Principal => ({
  userId,
  userName: userId,
  accessScope: 'system',
  primaryAccountId: 'account',
  credential: { kind: 'session', sessionId: `session-of-${userId}` },
  permissions: new Set(['VIEW_ACCOUNT']),
});

const NOW = new Date('2026-03-01T10:00:00Z');
const LATER = new Date('2026-03-01T11:00:00Z');

/** A cache that is listening, with `alice` and `bob` remembered. */
async function listeningCache() {
  const source = fakeSource();
  const cache = new PrincipalCache(source.feed);
  expect(cache.get('s-alice', 'alice', NOW)).toBeUndefined();
  await Promise.resolve();
  cache.remember('s-alice', principal('alice'), LATER, cache.generation);
  cache.remember('s-bob', principal('bob'), LATER, cache.generation);
  expect(cache.get('s-alice', 'alice', NOW)?.userId).toBe('alice');
  return { cache, source };
}

describe('the principal cache', () => {
  it('forgets one user on their notification, everyone on an empty one', async () => {
    const { cache, source } = await listeningCache();
    source.notify('alice');
    expect(cache.get('s-alice', 'alice', NOW)).toBeUndefined();
    expect(cache.get('s-bob', 'bob', NOW)?.userId).toBe('bob');
    source.notify('');
    expect(cache.get('s-bob', 'bob', NOW)).toBeUndefined();
  });

  it('forgets everyone when this process starts a statement that may change data', async () => {
    const { cache, source } = await listeningCache();
    const readBefore = cache.generation;
    source.write();
    expect(cache.get('s-bob', 'bob', NOW)).toBeUndefined();
    cache.remember('s-carol', principal('carol'), LATER, readBefore);
    expect(cache.get('s-carol', 'carol', NOW)).toBeUndefined();
  });

  it('does not remember what was read while a change arrived', async () => {
    const { cache, source } = await listeningCache();
    const readBefore = cache.generation;
    source.notify('carol');
    cache.remember('s-carol', principal('carol'), LATER, readBefore);
    expect(cache.get('s-carol', 'carol', NOW)).toBeUndefined();
  });

  it('answers nothing for another user, past the session’s end, or past its time limit', async () => {
    const { cache } = await listeningCache();
    expect(cache.get('s-alice', 'mallory', NOW)).toBeUndefined();
    cache.remember('s-alice', principal('alice'), LATER, cache.generation);
    expect(cache.get('s-alice', 'alice', LATER)).toBeUndefined();
    cache.remember('s-alice', principal('alice'), LATER, cache.generation);
    const started = performance.now();
    const clock = globalThis.performance.now.bind(globalThis.performance);
    globalThis.performance.now = () => started + PRINCIPAL_CACHE_TTL_MS;
    try {
      expect(cache.get('s-alice', 'alice', NOW)).toBeUndefined();
    } finally {
      globalThis.performance.now = clock;
    }
  });

  it('forgets everyone and remembers nothing once it stops hearing changes', async () => {
    const { cache, source } = await listeningCache();
    source.failNext(true);
    source.lose();
    expect(cache.get('s-alice', 'alice', NOW)).toBeUndefined();
    cache.remember('s-alice', principal('alice'), LATER, cache.generation);
    expect(cache.get('s-alice', 'alice', NOW)).toBeUndefined();
  });

  it('remembers nothing before it listens', () => {
    const cache = new PrincipalCache(fakeSource().feed);
    cache.remember('s-alice', principal('alice'), LATER, cache.generation);
    expect(cache.get('s-alice', 'alice', NOW)).toBeUndefined();
  });
});
