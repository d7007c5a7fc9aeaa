import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownerTag, sealJson } from '../../contract/offline-storage.ts';
import { OUTBOX_HEADERS } from '../../contract/outbox.ts';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffDelay, retryAfterDelay } from '../../sw/outbox/backoff.ts';
import { GONE_MESSAGE } from '../../sw/outbox/outcomes.ts';
import { apiError, change, Harness, json, ORIGIN, tokenFor, VersionedObject } from './support.ts';

let harness: Harness;
beforeEach(async () => {
  harness = await Harness.create();
  await harness.addKey('user-1');
});
afterEach(() => harness.engine.dispose());

const keysSent = () => harness.server.requests.map((request) => request.headers['idempotency-key']);
const states = async () => (await harness.records()).map((record) => record.state);

const SHOWN = { name: 'Acme', city: 'Lyon' };
const RENAMED = { name: 'Acme Corp', city: 'Lyon' };

/** The organization as the server keeps it, with the user's rename of it queued offline on version 1. */
async function organizationRenamedOffline(): Promise<VersionedObject> {
  const organization = new VersionedObject(SHOWN);
  harness.server.fallback = organization.answer;
  await harness.queueOffline({ key: 'rename', ifMatch: '"1"', base: SHOWN, body: RENAMED });
  return organization;
}

describe('replay', () => {
  it('sends a user’s entries oldest first, one at a time, with the session’s token and the stored request', async () => {
    const ids = [
      await harness.queueOffline({ key: 'k1', method: 'POST', path: '/account/ui-api/v1/organizations' }),
      await harness.queueOffline({ key: 'k2', ifMatch: '"2"', body: { name: 'Renamed' } }),
      await harness.queueOffline({ key: 'k3', method: 'DELETE', ifMatch: '"7"' }),
    ];
    harness.server.answer(json(201, { id: 'org-2' }), new Response(null, { status: 204 }));
    await harness.signIn('user-1', tokenFor('user-1', 'session'));

    expect(harness.server.requests).toEqual([
      {
        method: 'POST',
        url: `${ORIGIN}/account/ui-api/v1/organizations`,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${tokenFor('user-1', 'session')}`,
          'content-type': 'application/json',
          'idempotency-key': 'k1',
        },
        body: JSON.stringify({ name: 'Acme' }),
      },
      {
        method: 'PUT',
        url: `${ORIGIN}/account/ui-api/v1/organizations/org-1`,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${tokenFor('user-1', 'session')}`,
          'content-type': 'application/json',
          'idempotency-key': 'k2',
          'if-match': '"2"',
        },
        body: JSON.stringify({ name: 'Renamed' }),
      },
      {
        method: 'DELETE',
        url: `${ORIGIN}/account/ui-api/v1/organizations/org-1`,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${tokenFor('user-1', 'session')}`,
          'content-type': 'application/json',
          'idempotency-key': 'k3',
          'if-match': '"7"',
        },
        body: '',
      },
    ]);
    expect(harness.server.maxInFlight).toBe(1);
    expect(await harness.records()).toEqual([]);
    const owner = await ownerTag('user-1');
    expect(harness.events.filter((event) => event.type === 'synced')).toEqual([
      { type: 'synced', owner, id: ids[0], url: '/account/ui-api/v1/organizations', status: 201 },
      { type: 'synced', owner, id: ids[1], url: '/account/ui-api/v1/organizations/org-1', status: 204 },
      { type: 'synced', owner, id: ids[2], url: '/account/ui-api/v1/organizations/org-1', status: 204 },
    ]);
    expect(await harness.lastList('user-1')).toEqual([]);
  });

  it('sends a change queued behind another of the same object on the version the first one made, when its screen showed that change', async () => {
    await harness.queueOffline({
      key: 'k1',
      ifMatch: '"1"',
      base: { name: 'Original' },
      body: { name: 'First' },
    });
    await harness.queueOffline({
      key: 'k2',
      ifMatch: '"1"',
      base: { name: 'First' },
      body: { name: 'Second' },
    });
    await harness.queueOffline({
      key: 'k3',
      ifMatch: '"1"',
      path: '/account/ui-api/v1/organizations/org-9',
      base: { name: 'First' },
      body: { name: 'Another object' },
    });
    harness.server.answer(
      new Response(null, { status: 204, headers: { ETag: '"2"' } }),
      new Response(null, { status: 204, headers: { ETag: '"3"' } }),
      new Response(null, { status: 204, headers: { ETag: '"2"' } }),
    );
    await harness.signIn('user-1');

    expect(harness.server.requests.map((request) => [request.body, request.headers['if-match']])).toEqual([
      [JSON.stringify({ name: 'First' }), '"1"'],
      // Built on the user's own first change, not in conflict with it.
      [JSON.stringify({ name: 'Second' }), '"2"'],
      // Another object keeps the version it was made on.
      [JSON.stringify({ name: 'Another object' }), '"1"'],
    ]);
    expect(await harness.records()).toEqual([]);
  });

  it('leaves a change made on a screen that did not show the change before it on its version: it conflicts, it does not overwrite', async () => {
    // One tab renames the organization; another, whose form still showed the old name, changes the city.
    const organization = await organizationRenamedOffline();
    const stale = await harness.queueOffline({
      key: 'city',
      ifMatch: '"1"',
      base: SHOWN,
      body: { name: 'Acme', city: 'Paris' },
    });
    await harness.signIn('user-1');

    expect(harness.server.requests.map((request) => request.headers['if-match'])).toEqual(['"1"', '"1"']);
    expect(organization.value).toEqual(RENAMED);
    expect(await harness.lastList('user-1')).toMatchObject([
      {
        id: stale,
        state: 'conflict',
        body: { name: 'Acme', city: 'Paris' },
        current: { value: RENAMED, etag: '"2"' },
      },
    ]);
  });

  it('sends each of three changes made one after the other on one screen on the version the one before made', async () => {
    const organization = await organizationRenamedOffline();
    const moved = { name: 'Acme Corp', city: 'Paris' };
    await harness.queueOffline({ key: 'city', ifMatch: '"1"', base: RENAMED, body: moved });
    await harness.queueOffline({
      key: 'rename-again',
      ifMatch: '"1"',
      base: moved,
      body: { name: 'Acme Group', city: 'Paris' },
    });
    await harness.signIn('user-1');

    expect(harness.server.requests.map((request) => request.headers['if-match'])).toEqual([
      '"1"',
      '"2"',
      '"3"',
    ]);
    expect(organization.value).toEqual({ name: 'Acme Group', city: 'Paris' });
    expect(await harness.records()).toEqual([]);
  });

  it.each([
    ['showed that change: it is moved onto its version', RENAMED, []],
    ['did not show that change: it conflicts', SHOWN, ['conflict']],
  ])('a deletion behind a change of the same object made on a screen that %s', async (_, base, left) => {
    const organization = await organizationRenamedOffline();
    await harness.queueOffline({ key: 'delete', method: 'DELETE', ifMatch: '"1"', base });
    await harness.signIn('user-1');

    expect(organization.deleted).toBe(left.length === 0);
    expect(await states()).toEqual(left);
  });

  /** Ways a second change of the organization reaches the outbox with no base it could be moved by. */
  const withoutBase = {
    'sealed by an earlier build, which kept no base': async () => {
      const id = await harness.queueOffline({
        key: 'k2',
        ifMatch: '"1"',
        body: { name: 'Acme Group', city: 'Lyon' },
      });
      const record = await harness.record(id);
      const keyRecord = await harness.database.get('keys', record?.keyId ?? '');
      if (!record || !keyRecord?.key) throw new Error('the entry cannot be opened');
      const { base: _, ...earlier } = await harness.content(id);
      await harness.database.put('outbox', { ...record, sealed: await sealJson(keyRecord.key, earlier) });
    },
    'sent without a base': () =>
      harness.queueOffline({ key: 'k2', ifMatch: '"1"', body: { name: 'Acme Group', city: 'Lyon' } }),
    'sent with a base that is not JSON': async () => {
      const request = change({ key: 'k2', ifMatch: '"1"', body: { name: 'Acme Group', city: 'Lyon' } });
      request.headers.set(OUTBOX_HEADERS.base, '%7B%22name');
      harness.server.offline = true;
      expect((await harness.engine.intercept(request)).status).toBe(202);
      await harness.engine.idle();
      harness.server.offline = false;
    },
  };

  it.each(Object.keys(withoutBase) as Array<keyof typeof withoutBase>)(
    'leaves a change %s on its version: it conflicts',
    async (how) => {
      const organization = await organizationRenamedOffline();
      await withoutBase[how]();
      await harness.signIn('user-1');

      expect(harness.server.requests.map((request) => request.headers['if-match'])).toEqual(['"1"', '"1"']);
      expect(organization.value).toEqual(RENAMED);
      expect(await harness.lastList('user-1')).toMatchObject([
        { state: 'conflict', body: { name: 'Acme Group', city: 'Lyon' }, current: { value: RENAMED } },
      ]);
    },
  );

  it('sends nothing without a session, and nothing with an expired one', async () => {
    await harness.queueOffline();
    await harness.engine.command({ type: 'sync-now' });
    await harness.engine.idle();
    expect(harness.server.requests).toEqual([]);

    await harness.engine.command({
      type: 'session',
      userId: 'user-1',
      accessToken: tokenFor('user-1'),
      expiresAt: harness.now - 1,
    });
    await harness.engine.idle();
    expect(harness.server.requests).toEqual([]);
    expect(await states()).toEqual(['pending']);
  });

  it('runs one replay at a time however many triggers overlap, and sends each entry once', async () => {
    for (const key of ['k1', 'k2', 'k3', 'k4']) await harness.queueOffline({ key });
    await harness.engine.command({
      type: 'session',
      userId: 'user-1',
      accessToken: tokenFor('user-1'),
      expiresAt: harness.now + 60_000,
    });
    await Promise.all([
      harness.engine.replay(),
      harness.engine.command({ type: 'sync-now' }),
      harness.engine.replay(),
      harness.engine.start(),
      harness.engine.command({ type: 'sync-now' }),
    ]);
    await harness.engine.idle();
    expect(keysSent()).toEqual(['k1', 'k2', 'k3', 'k4']);
    expect(harness.server.maxInFlight).toBe(1);
  });
});

describe('what the server answers on replay', () => {
  it('2xx: the entry is removed and the pages are told', async () => {
    const id = await harness.queueOffline();
    harness.server.answer(json(200, {}));
    await harness.signIn('user-1');
    expect(await harness.record(id)).toBeUndefined();
    expect(harness.events).toContainEqual(expect.objectContaining({ type: 'synced', id, status: 200 }));
  });

  it('401: held, and nothing more of that user is sent until the same user signs in again', async () => {
    await harness.queueOffline({ key: 'k1' });
    await harness.queueOffline({ key: 'k2' });
    harness.server.answer(apiError(401, 'Token expired.'));
    await harness.signIn('user-1');
    expect(keysSent()).toEqual(['k1']);
    expect(await states()).toEqual(['held', 'held']);

    await harness.engine.command({ type: 'sync-now' });
    await harness.engine.idle();
    expect(keysSent()).toEqual(['k1']);

    await harness.signIn('user-1', tokenFor('user-1', 'fresh'));
    expect(keysSent()).toEqual(['k1', 'k1', 'k2']);
    expect(harness.server.requests.at(-1)?.headers.authorization).toBe(
      `Bearer ${tokenFor('user-1', 'fresh')}`,
    );
    expect(await harness.records()).toEqual([]);
  });

  it('409 with Retry-After: retried later like a 5xx, and the entries behind it wait', async () => {
    const id = await harness.queueOffline({ key: 'k1' });
    await harness.queueOffline({ key: 'k2' });
    harness.server.answer(
      apiError(409, 'A request with this key is still in progress.', { 'Retry-After': '30' }),
    );
    await harness.signIn('user-1');

    expect(keysSent()).toEqual(['k1']);
    const record = await harness.record(id);
    expect(record).toMatchObject({ state: 'pending', attempts: 1 });
    expect(record?.nextAttemptAt).toBe(harness.now + 30_000);
    expect(await states()).toEqual(['pending', 'pending']);

    await harness.fireTimer();
    expect(keysSent()).toEqual(['k1', 'k1', 'k2']);
  });

  it('409 otherwise: a conflict, with the server’s message and the object read again with the token', async () => {
    const id = await harness.queueOffline({ key: 'k1', resource: '/account/ui-api/v1/organizations/org-1' });
    await harness.queueOffline({ key: 'k2' });
    harness.server.answer(
      apiError(409, 'An organization with this name already exists.'),
      json(200, { id: 'org-1', name: 'Acme', version: 5 }, { ETag: '"5"' }),
    );
    await harness.signIn('user-1');

    expect(harness.server.requests[1]).toEqual({
      method: 'GET',
      url: `${ORIGIN}/account/ui-api/v1/organizations/org-1`,
      headers: { accept: 'application/json', authorization: `Bearer ${tokenFor('user-1')}` },
      body: '',
    });
    // A conflict waits for the user; the entries behind it go on.
    expect(keysSent()).toEqual(['k1', undefined, 'k2']);
    expect(await states()).toEqual(['conflict']);
    const [view] = (await harness.lastList('user-1')) ?? [];
    expect(view).toMatchObject({
      id,
      state: 'conflict',
      error: { status: 409, message: 'An organization with this name already exists.' },
      current: { value: { id: 'org-1', name: 'Acme', version: 5 }, etag: '"5"' },
    });
  });

  it('409 without a resource to read: a conflict with no current version', async () => {
    const id = await harness.queueOffline();
    harness.server.answer(apiError(409, 'Already exists.'));
    await harness.signIn('user-1');
    expect(harness.server.requests).toHaveLength(1);
    expect((await harness.content(id)).current).toBeNull();
    expect(await states()).toEqual(['conflict']);
  });

  it('412: a conflict keeping the current representation and its ETag', async () => {
    const id = await harness.queueOffline({ ifMatch: '"3"' });
    harness.server.answer(
      json(
        412,
        {
          error: { status: 412, message: 'Organization has changed since it was read.' },
          current: { id: 'org-1', name: 'Acme Ltd', version: 4 },
        },
        { ETag: '"4"' },
      ),
    );
    await harness.signIn('user-1');
    expect(await harness.record(id)).toMatchObject({ state: 'conflict', nextAttemptAt: null });
    const content = await harness.content(id);
    expect(content.error).toEqual({ status: 412, message: 'Organization has changed since it was read.' });
    expect(content.current).toEqual({ value: { id: 'org-1', name: 'Acme Ltd', version: 4 }, etag: '"4"' });
  });

  it('404: failed, saying the object no longer exists', async () => {
    const id = await harness.queueOffline();
    harness.server.answer(apiError(404, 'Organization not found.'));
    await harness.signIn('user-1');
    expect(await harness.record(id)).toMatchObject({ state: 'failed' });
    expect((await harness.content(id)).error).toEqual({ status: 404, message: GONE_MESSAGE });
  });

  it('other 4xx: failed with the server’s message; the entries behind it go on', async () => {
    const id = await harness.queueOffline({ key: 'k1' });
    await harness.queueOffline({ key: 'k2' });
    harness.server.answer(apiError(400, 'City is required.'), json(200, {}));
    await harness.signIn('user-1');
    expect(keysSent()).toEqual(['k1', 'k2']);
    expect(await states()).toEqual(['failed']);
    expect((await harness.content(id)).error).toEqual({ status: 400, message: 'City is required.' });
  });

  it('a 4xx without a JSON body: failed with a message naming the status', async () => {
    const id = await harness.queueOffline();
    harness.server.answer(new Response('Forbidden', { status: 403 }));
    await harness.signIn('user-1');
    expect((await harness.content(id)).error).toEqual({
      status: 403,
      message: 'The server refused this change (HTTP 403).',
    });
  });

  it.each([
    ['a 5xx', () => apiError(503, 'Unavailable.')],
    ['a network error', () => 'network-error' as const],
  ])('%s: pending again after a back-off, the same key resent, order kept', async (_label, failure) => {
    const id = await harness.queueOffline({ key: 'k1' });
    await harness.queueOffline({ key: 'k2' });
    harness.random = 0.5;
    harness.server.answer(failure());
    await harness.signIn('user-1');

    expect(keysSent()).toEqual(['k1']);
    const record = await harness.record(id);
    expect(record).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: harness.now + 500 });
    expect(harness.liveTimers()).toEqual([expect.objectContaining({ delayMs: 500 })]);

    harness.server.answer(failure());
    await harness.fireTimer();
    expect(keysSent()).toEqual(['k1', 'k1']);
    expect(await harness.record(id)).toMatchObject({ attempts: 2, nextAttemptAt: harness.now + 1_000 });

    await harness.fireTimer();
    expect(keysSent()).toEqual(['k1', 'k1', 'k1', 'k2']);
    expect(await harness.records()).toEqual([]);
  });

  it('a server that asked to wait is not sent the change again before its time, whatever the page says', async () => {
    const id = await harness.queueOffline({ key: 'k1' });
    harness.random = 0.5;
    harness.server.answer(apiError(503, 'Unavailable.'));
    await harness.signIn('user-1');
    expect(await harness.record(id)).toMatchObject({ nextAttemptAt: harness.now + 500 });

    await harness.engine.command({ type: 'sync-now' });
    await harness.engine.idle();
    expect(keysSent()).toEqual(['k1']);
  });

  it('a change that got no answer goes as soon as the page says the network may be back, its back-off counting on', async () => {
    const id = await harness.queueOffline({ key: 'k1' });
    await harness.queueOffline({ key: 'k2' });
    harness.random = 0.5;
    // Offline for a while: three attempts got no answer, the next one is due in two seconds.
    for (const _ of [1, 2, 3]) harness.server.answer('network-error');
    await harness.signIn('user-1');
    await harness.fireTimer();
    await harness.fireTimer();
    expect(await harness.record(id)).toMatchObject({ attempts: 3, nextAttemptAt: harness.now + 2_000 });

    // The browser says it is online again, but the network is still down: one attempt, the wait grows.
    harness.server.answer('network-error');
    await harness.engine.command({ type: 'sync-now' });
    await harness.engine.idle();
    expect(keysSent()).toEqual(['k1', 'k1', 'k1', 'k1']);
    expect(await harness.record(id)).toMatchObject({ attempts: 4, nextAttemptAt: harness.now + 4_000 });

    // Back for real: everything goes at once, in order.
    await harness.engine.command({ type: 'sync-now' });
    await harness.engine.idle();
    expect(keysSent()).toEqual(['k1', 'k1', 'k1', 'k1', 'k1', 'k2']);
    expect(await harness.records()).toEqual([]);
  });
});

describe('back-off', () => {
  it('draws from [0, min(5 min, 1 s × 2^(attempts−1))) with full jitter', () => {
    for (let attempts = 1; attempts <= 20; attempts += 1) {
      const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempts - 1));
      expect(backoffDelay(attempts, () => 0)).toBe(0);
      expect(backoffDelay(attempts, () => 0.999_999)).toBeLessThan(ceiling);
      expect(backoffDelay(attempts, () => 0.999_999)).toBeGreaterThanOrEqual(ceiling - 1);
    }
    expect(backoffDelay(1, () => 0.5)).toBe(500);
    expect(backoffDelay(3, () => 0.5)).toBe(2_000);
    expect(backoffDelay(40, () => 0.999_999)).toBeLessThan(BACKOFF_CAP_MS);
  });

  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2026-03-02T09:00:00Z');
    expect(retryAfterDelay('30', now)).toBe(30_000);
    expect(retryAfterDelay('Mon, 02 Mar 2026 09:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterDelay('soon', now)).toBeNull();
    expect(retryAfterDelay(null, now)).toBeNull();
  });

  it('never waits longer than the cap, whatever Retry-After says', async () => {
    const id = await harness.queueOffline();
    harness.server.answer(apiError(409, 'In progress.', { 'Retry-After': '86400' }));
    await harness.signIn('user-1');
    expect((await harness.record(id))?.nextAttemptAt).toBe(harness.now + BACKOFF_CAP_MS);
  });
});

describe('users', () => {
  it('never sends an entry with another user’s token: another user’s session holds it', async () => {
    await harness.addKey('user-2');
    await harness.queueOffline({ userId: 'user-1', key: 'k-of-1' });
    await harness.signIn('user-2');

    expect(harness.server.requests).toEqual([]);
    expect(await states()).toEqual(['held']);

    await harness.queueOffline({ userId: 'user-2', key: 'k-of-2' });
    await harness.fireTimer();
    expect(harness.server.delivered.map((request) => request.headers['idempotency-key'])).toEqual(['k-of-2']);
    for (const request of harness.server.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${tokenFor('user-2')}`);
    }

    await harness.signIn('user-1');
    expect(harness.server.delivered.at(-1)).toMatchObject({
      headers: expect.objectContaining({
        'idempotency-key': 'k-of-1',
        authorization: `Bearer ${tokenFor('user-1')}`,
      }),
    });
  });

  it('refuses a session whose token names another user', async () => {
    await harness.queueOffline();
    await harness.engine.command({
      type: 'session',
      userId: 'user-1',
      accessToken: tokenFor('user-2'),
      expiresAt: harness.now + 60_000,
    });
    await harness.engine.idle();
    expect(harness.server.requests).toEqual([]);
  });

  it('lists only the entries of the user asked for', async () => {
    await harness.addKey('user-2');
    await harness.queueOffline({ userId: 'user-1', summary: 'Of one' });
    await harness.queueOffline({ userId: 'user-2', summary: 'Of two' });
    harness.events.length = 0;
    await harness.engine.command({ type: 'list', userId: 'user-2' });
    expect(harness.events).toEqual([
      {
        type: 'outbox',
        owner: await ownerTag('user-2'),
        entries: [expect.objectContaining({ summary: 'Of two' })],
      },
    ]);
  });

  it('sign-out keeping changes holds them; sign-out without discards them', async () => {
    await harness.addKey('user-2');
    await harness.queueOffline({ userId: 'user-1' });
    await harness.queueOffline({ userId: 'user-2' });
    await harness.signIn('user-1');
    harness.server.offline = true;
    await harness.queueOffline({ userId: 'user-1', key: 'later' });

    await harness.engine.command({ type: 'session-ended', userId: 'user-1', keep: true });
    await harness.engine.idle();
    const owner1 = await ownerTag('user-1');
    expect((await harness.records()).filter((record) => record.owner === owner1).map((r) => r.state)).toEqual(
      ['held'],
    );

    await harness.engine.command({ type: 'session-ended', userId: 'user-2', keep: false });
    await harness.engine.idle();
    expect((await harness.records()).map((record) => record.owner)).toEqual([owner1]);
    expect(await harness.lastList('user-2')).toEqual([]);
  });
});
