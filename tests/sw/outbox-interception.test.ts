import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ownerTag } from '../../contract/offline-storage.ts';
import { OUTBOX_QUOTA_STATUS } from '../../contract/outbox.ts';
import { isQueueable } from '../../sw/outbox/content.ts';
import { WORKER_REFUSALS } from '../../sw/outbox/outcomes.ts';
import { apiError, change, Harness, json, ORIGIN, tokenFor } from './support.ts';

let harness: Harness;
beforeEach(async () => {
  harness = await Harness.create();
  await harness.addKey('user-1');
});
afterEach(() => {
  harness.engine.dispose();
  vi.restoreAllMocks();
});

describe('which requests the outbox takes', () => {
  const marked = (init: RequestInit & { url?: string } = {}) =>
    new Request(init.url ?? `${ORIGIN}/account/ui-api/v1/organizations`, {
      method: 'POST',
      headers: { 'Idempotency-Key': 'k', 'X-Outbox-Summary': 'Create', ...(init.headers ?? {}) },
      ...init,
    });

  it('takes POST, PUT and DELETE to the API that carry a key and a summary', () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      expect(isQueueable(marked({ method }), ORIGIN)).toBe(true);
    }
    expect(isQueueable(marked({ url: `${ORIGIN}/imauth/api/v1/logout` }), ORIGIN)).toBe(true);
  });

  it('leaves reads, unmarked changes, other origins and non-API paths to the network', () => {
    expect(isQueueable(marked({ method: 'GET' }), ORIGIN)).toBe(false);
    expect(isQueueable(marked({ method: 'PATCH' }), ORIGIN)).toBe(false);
    expect(
      isQueueable(new Request(`${ORIGIN}/account/ui-api/v1/organizations`, { method: 'POST' }), ORIGIN),
    ).toBe(false);
    expect(
      isQueueable(
        new Request(`${ORIGIN}/account/ui-api/v1/organizations`, {
          method: 'POST',
          headers: { 'Idempotency-Key': 'k' },
        }),
        ORIGIN,
      ),
    ).toBe(false);
    expect(isQueueable(marked({ url: 'https://elsewhere.example/account/ui-api/v1/x' }), ORIGIN)).toBe(false);
    expect(isQueueable(marked({ url: `${ORIGIN}/account/accounts` }), ORIGIN)).toBe(false);
  });
});

describe('a change while the server answers', () => {
  it('is sent once with the page’s token and headers, without the X-Outbox headers, and stored nowhere', async () => {
    harness.server.answer(json(201, { id: 'org-9' }, { ETag: '"1"', Location: '/x' }));
    const response = await harness.engine.intercept(
      change({
        method: 'POST',
        path: '/account/ui-api/v1/organizations',
        ifMatch: '"4"',
        key: 'key-77',
        base: { name: 'Acme' },
      }),
    );

    expect(response.status).toBe(201);
    expect(response.headers.get('ETag')).toBe('"1"');
    expect(await response.json()).toEqual({ id: 'org-9' });
    expect(harness.server.requests).toEqual([
      {
        method: 'POST',
        url: `${ORIGIN}/account/ui-api/v1/organizations`,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${tokenFor('user-1')}`,
          'content-type': 'application/json',
          'idempotency-key': 'key-77',
          'if-match': '"4"',
          'x-requested-with': 'trust-console',
        },
        body: JSON.stringify({ name: 'Acme' }),
      },
    ]);
    expect(await harness.records()).toEqual([]);
  });

  it.each([
    [412, apiError(412, 'Organization has changed since it was read.')],
    [500, apiError(500, 'Internal server error.')],
    [401, apiError(401, 'Token expired.')],
  ])('passes a %i through untouched and keeps nothing', async (status, answer) => {
    const body = await answer.clone().text();
    harness.server.answer(answer);
    const response = await harness.engine.intercept(change());
    expect(response.status).toBe(status);
    expect(await response.text()).toBe(body);
    expect(await harness.records()).toEqual([]);
  });
});

describe('a change while the network is down', () => {
  it('is sealed and stored, without the token or the X-Outbox headers, and answered 202', async () => {
    harness.server.offline = true;
    const response = await harness.engine.intercept(
      change({
        ifMatch: '"3"',
        key: 'key-5',
        summary: 'Edit organization Ärzte & Co',
        resource: '/account/ui-api/v1/organizations/org-1',
        base: { name: 'Ärzte & Co', city: 'Zürich' },
      }),
    );

    expect(response.status).toBe(202);
    const { outboxId } = (await response.json()) as { outboxId: string };
    const [record] = await harness.records();
    expect(record).toMatchObject({
      id: outboxId,
      sequence: 1,
      owner: await ownerTag('user-1'),
      keyId: 'key-of-user-1',
      state: 'pending',
      attempts: 0,
      nextAttemptAt: null,
      createdAt: harness.now,
    });
    expect(await harness.content(outboxId)).toEqual({
      method: 'PUT',
      url: '/account/ui-api/v1/organizations/org-1',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'Idempotency-Key': 'key-5',
        'If-Match': '"3"',
      },
      body: JSON.stringify({ name: 'Acme' }),
      summary: 'Edit organization Ärzte & Co',
      accountId: 'account-1',
      resource: '/account/ui-api/v1/organizations/org-1',
      base: { name: 'Ärzte & Co', city: 'Zürich' },
      error: null,
      current: null,
    });
    // Nothing readable is left outside the seal.
    const stored = new TextDecoder().decode(record?.sealed.data);
    expect(stored).not.toContain('Acme');
    expect(stored).not.toContain('Zürich');
    expect(JSON.stringify(record)).not.toContain(tokenFor('user-1'));
    expect(JSON.stringify(await harness.content(outboxId))).not.toContain(tokenFor('user-1'));
    expect(harness.syncRequests).toBe(1);
  });

  it('is stored even without a token on the page: offline, the page may have none', async () => {
    harness.server.offline = true;
    const response = await harness.engine.intercept(change({ token: null }));
    expect(response.status).toBe(202);
    expect(await harness.records()).toHaveLength(1);
  });

  it('tells the pages, with the decrypted entry', async () => {
    const id = await harness.queueOffline({ summary: 'Edit organization Acme', body: { name: 'Acme 2' } });
    expect(await harness.lastList('user-1')).toEqual([
      {
        id,
        sequence: 1,
        accountId: 'account-1',
        method: 'PUT',
        url: '/account/ui-api/v1/organizations/org-1',
        body: { name: 'Acme 2' },
        summary: 'Edit organization Acme',
        createdAt: new Date(harness.now).toISOString(),
        attempts: 0,
        state: 'pending',
        error: null,
        current: null,
      },
    ]);
  });
});

describe('a change the outbox refuses, storing nothing', () => {
  it('answers 403 when the token belongs to another user than X-Outbox-Owner', async () => {
    const response = await harness.engine.intercept(change({ userId: 'user-1', token: tokenFor('user-2') }));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: { status: 403, message: WORKER_REFUSALS.otherUser.message },
    });
    expect(harness.server.requests).toEqual([]);
    expect(await harness.records()).toEqual([]);
  });

  it('answers 403 for a bearer token that is not a JWT', async () => {
    const response = await harness.engine.intercept(change({ token: 'opaque-token' }));
    expect(response.status).toBe(403);
    expect(harness.server.requests).toEqual([]);
  });

  it('answers 401 when the user has no live storage key', async () => {
    for (const setup of [
      async () => undefined,
      async () => harness.addKey('user-3', { locked: true }),
      async () => harness.addKey('user-3', { expiresAt: harness.now - 1 }),
    ]) {
      harness = await Harness.create();
      await setup();
      const response = await harness.engine.intercept(change({ userId: 'user-3' }));
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: { status: 401, message: WORKER_REFUSALS.signInAgain.message },
      });
      expect(harness.server.requests).toEqual([]);
      expect(await harness.records()).toEqual([]);
    }
  });

  it('answers 400 when the change names no user', async () => {
    const request = change();
    request.headers.delete('X-Outbox-Owner');
    const response = await harness.engine.intercept(request);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { status: 400, message: WORKER_REFUSALS.noOwner.message },
    });
    expect(harness.server.requests).toEqual([]);
  });

  it('answers 507 when the browser refuses to store it, and says so to the pages', async () => {
    const { IDBObjectStore } = await import('fake-indexeddb');
    vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    harness.server.offline = true;
    const response = await harness.engine.intercept(change({ summary: 'Create organization Acme' }));

    expect(response.status).toBe(OUTBOX_QUOTA_STATUS);
    expect(await response.json()).toEqual({
      error: { status: 507, message: WORKER_REFUSALS.noRoom.message },
    });
    expect(harness.events).toContainEqual({
      type: 'quota-exceeded',
      owner: await ownerTag('user-1'),
      summary: 'Create organization Acme',
    });
    vi.restoreAllMocks();
    expect(await harness.records()).toEqual([]);
  });
});

describe('a change behind others of the same user', () => {
  it('is queued behind them, not sent ahead, and goes out after them in order', async () => {
    const first = await harness.queueOffline({ key: 'key-a', body: { name: 'First' } });
    const response = await harness.engine.intercept(change({ key: 'key-b', body: { name: 'Second' } }));

    expect(response.status).toBe(202);
    expect(harness.server.offlineAttempts.map((request) => request.headers['idempotency-key'])).toEqual([
      'key-a',
    ]);
    expect(harness.server.requests).toEqual([]);
    const records = await harness.records();
    expect(records.map((record) => record.id)[0]).toBe(first);
    expect(records.map((record) => record.sequence)).toEqual([1, 2]);

    await harness.signIn('user-1');
    expect(harness.server.delivered.map((request) => request.headers['idempotency-key'])).toEqual([
      'key-a',
      'key-b',
    ]);
    expect(await harness.records()).toEqual([]);
  });

  it('is queued behind held entries too', async () => {
    await harness.queueOffline({ key: 'key-a' });
    await harness.queueOffline({ key: 'key-b' });
    harness.server.answer(apiError(401, 'Token expired.'));
    await harness.signIn('user-1');
    expect((await harness.records()).map((record) => record.state)).toEqual(['held', 'held']);

    const response = await harness.engine.intercept(change({ key: 'key-c' }));
    await harness.engine.idle();
    expect(response.status).toBe(202);
    expect(harness.server.requests.map((request) => request.headers['idempotency-key'])).toEqual(['key-a']);
    expect((await harness.records()).map((record) => record.state)).toEqual(['held', 'held', 'pending']);
  });

  it('does not wait behind another user’s entries', async () => {
    await harness.addKey('user-2');
    await harness.queueOffline({ userId: 'user-2', key: 'key-of-2' });
    harness.server.answer(json(200, { ok: true }));
    const response = await harness.engine.intercept(change({ userId: 'user-1', key: 'key-of-1' }));
    expect(response.status).toBe(200);
  });
});
