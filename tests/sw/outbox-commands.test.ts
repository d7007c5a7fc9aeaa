import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKOFF_CAP_MS } from '../../sw/outbox/backoff.ts';
import { apiError, Harness, json } from './support.ts';

let harness: Harness;
beforeEach(async () => {
  harness = await Harness.create();
  await harness.addKey('user-1');
});
afterEach(() => harness.engine.dispose());

const keysSent = () => harness.server.requests.map((request) => request.headers['idempotency-key']);

async function conflicted(): Promise<string> {
  const id = await harness.queueOffline({ key: 'original-key', ifMatch: '"3"', body: { name: 'Mine' } });
  harness.server.answer(
    json(
      412,
      { error: { status: 412, message: 'Changed meanwhile.' }, current: { name: 'Theirs', version: 4 } },
      { ETag: '"4"' },
    ),
  );
  await harness.signIn('user-1');
  expect((await harness.record(id))?.state).toBe('conflict');
  return id;
}

async function failed(): Promise<string> {
  const id = await harness.queueOffline({ key: 'original-key', body: { name: '' } });
  harness.server.answer(apiError(400, 'Name is required.'));
  await harness.signIn('user-1');
  expect((await harness.record(id))?.state).toBe('failed');
  return id;
}

describe('reapply', () => {
  it('sends a conflict again on the current version, under a new Idempotency-Key', async () => {
    const id = await conflicted();
    harness.server.answer(new Response(null, { status: 204 }));
    await harness.engine.command({ type: 'reapply', id });
    await harness.engine.idle();

    const resent = harness.server.requests.at(-1);
    expect(resent?.headers['if-match']).toBe('"4"');
    // A fresh key, as the Structured Field string the server requires.
    expect(resent?.headers['idempotency-key']).toMatch(/^"generated-\d+"$/);
    expect(resent?.body).toBe(JSON.stringify({ name: 'Mine' }));
    expect(await harness.record(id)).toBeUndefined();
  });

  it('clears the conflict and waits its turn when there is no session', async () => {
    const id = await conflicted();
    await harness.engine.command({ type: 'session-ended', userId: 'user-1', keep: true });
    await harness.engine.command({ type: 'reapply', id });
    await harness.engine.idle();
    expect(await harness.record(id)).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: null });
    const content = await harness.content(id);
    expect(content).toMatchObject({ error: null, current: null });
    expect(content.headers['Idempotency-Key']).toMatch(/^"generated-\d+"$/);
    expect(content.headers['If-Match']).toBe('"4"');
  });

  it('leaves entries that are not conflicts alone', async () => {
    const id = await failed();
    await harness.engine.command({ type: 'reapply', id });
    await harness.engine.idle();
    expect((await harness.record(id))?.state).toBe('failed');
  });
});

describe('retry', () => {
  it('sends a failed change again with the edited body, under a new Idempotency-Key', async () => {
    const id = await failed();
    harness.server.answer(json(201, {}));
    await harness.engine.command({ type: 'retry', id, body: { name: 'Fixed' } });
    await harness.engine.idle();

    const resent = harness.server.requests.at(-1);
    expect(resent?.body).toBe(JSON.stringify({ name: 'Fixed' }));
    expect(resent?.headers['content-type']).toBe('application/json');
    expect(resent?.headers['idempotency-key']).toMatch(/^"generated-\d+"$/);
    expect(await harness.record(id)).toBeUndefined();
  });

  it('keeps the body when none is given, still under a new key', async () => {
    const id = await failed();
    await harness.engine.command({ type: 'session-ended', userId: 'user-1', keep: true });
    await harness.engine.command({ type: 'retry', id });
    await harness.engine.idle();
    const content = await harness.content(id);
    expect(content.body).toBe(JSON.stringify({ name: '' }));
    expect(content.headers['Idempotency-Key']).toMatch(/^"generated-\d+"$/);
    expect(content.error).toBeNull();
  });

  it('refuses an edited body that is not JSON', async () => {
    const id = await failed();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const body of [10n, circular, () => 1]) {
      await harness.engine.command({ type: 'retry', id, body });
      await harness.engine.idle();
      expect((await harness.record(id))?.state).toBe('failed');
    }
    expect(keysSent()).toEqual(['original-key']);
  });

  it('leaves entries that have not failed alone', async () => {
    const id = await conflicted();
    await harness.engine.command({ type: 'retry', id, body: { name: 'x' } });
    await harness.engine.idle();
    expect((await harness.record(id))?.state).toBe('conflict');
  });
});

describe('discard', () => {
  it('removes the entry and tells the pages', async () => {
    const id = await conflicted();
    await harness.engine.command({ type: 'discard', id });
    await harness.engine.idle();
    expect(await harness.record(id)).toBeUndefined();
    expect(await harness.lastList('user-1')).toEqual([]);
  });

  it('is not undone by the answer of a request already on the wire', async () => {
    const id = await harness.queueOffline();
    harness.server.answer(async () => {
      await harness.engine.command({ type: 'discard', id });
      return apiError(503, 'Unavailable.');
    });
    await harness.signIn('user-1');
    expect(harness.server.requests).toHaveLength(1);
    expect(await harness.records()).toEqual([]);
  });
});

describe('a worker that stopped and started again', () => {
  it('puts entries left `sending` back to pending and sends them with the same key', async () => {
    const id = await harness.queueOffline({ key: 'k1' });
    const record = await harness.record(id);
    if (!record) throw new Error('not stored');
    await harness.database.put('outbox', { ...record, state: 'sending' });

    const engine = harness.newEngine();
    await engine.start();
    await engine.idle();
    expect((await harness.record(id))?.state).toBe('pending');

    await harness.signIn('user-1');
    expect(keysSent()).toEqual(['k1']);
  });

  it('has forgotten every token: nothing replays before a page hands one over', async () => {
    await harness.queueOffline();
    await harness.signIn('user-1');
    harness.server.offline = true;
    await harness.queueOffline({ key: 'k2' });
    harness.server.offline = false;

    const engine = harness.newEngine();
    await engine.start();
    harness.now += BACKOFF_CAP_MS;
    await engine.command({ type: 'sync-now' });
    await engine.idle();
    expect(keysSent()).toEqual(['key-1']);

    await harness.signIn('user-1');
    expect(keysSent()).toEqual(['key-1', 'k2']);
  });
});

describe('records that cannot be read', () => {
  it('passes over a damaged record, lists the others and sends them', async () => {
    const damaged = await harness.queueOffline({ key: 'k1', summary: 'Damaged' });
    await harness.queueOffline({ key: 'k2', summary: 'Intact' });
    const record = await harness.record(damaged);
    if (!record) throw new Error('not stored');
    const bytes = new Uint8Array(record.sealed.data.slice(0));
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    await harness.database.put('outbox', { ...record, sealed: { iv: record.sealed.iv, data: bytes.buffer } });

    await harness.engine.command({ type: 'list', userId: 'user-1' });
    expect((await harness.lastList('user-1'))?.map((entry) => entry.summary)).toEqual(['Intact']);

    await harness.signIn('user-1');
    expect(keysSent()).toEqual(['k2']);
    expect((await harness.records()).map((stored) => stored.id)).toEqual([damaged]);
  });

  it('leaves out entries whose key was destroyed', async () => {
    await harness.queueOffline({ summary: 'Sealed with the old key' });
    await harness.database.delete('keys', 'key-of-user-1');
    await harness.addKey('user-1', { keyId: 'new-key' });
    await harness.queueOffline({ key: 'k2', summary: 'Sealed with the new key' });
    await harness.engine.command({ type: 'list', userId: 'user-1' });
    expect((await harness.lastList('user-1'))?.map((entry) => entry.summary)).toEqual([
      'Sealed with the new key',
    ]);
  });

  it('keeps the place of an entry whose key is locked until its user signs in again', async () => {
    await harness.queueOffline({ key: 'k1' });
    const keyRecord = await harness.database.get('keys', 'key-of-user-1');
    if (!keyRecord) throw new Error('no key');
    await harness.database.put('keys', { ...keyRecord, key: null });
    await harness.addKey('user-1', { keyId: 'new-key', createdAt: harness.now + 1 });
    await harness.queueOffline({ key: 'k2' });

    await harness.signIn('user-1');
    expect(keysSent()).toEqual([]);

    await harness.database.put('keys', keyRecord);
    await harness.engine.command({ type: 'sync-now' });
    await harness.engine.idle();
    expect(keysSent()).toEqual(['k1', 'k2']);
  });
});
