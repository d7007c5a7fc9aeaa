import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashOpaqueToken } from '../../../server/identity/opaque-tokens.ts';
import {
  REFRESH_REUSE_INTERVAL_MS,
  type RefreshOutcome,
  refreshClient,
  revokeUserSessions,
  rotateRefreshToken,
  startSession,
} from '../../../server/identity/sessions.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-app.ts';

const HOUR = 3600_000;

describe('sessions and refresh-token rotation', () => {
  let harness: TestApp;
  let user: TestUser;
  let now: Date;
  beforeAll(async () => {
    now = new Date('2026-03-01T10:00:00Z');
    harness = await createTestApp({
      now: () => now,
      config: { refreshTokenTtlSeconds: 8 * 3600, sessionMaxAgeSeconds: 24 * 3600 },
    });
    user = await harness.createUser({ accessScope: 'account' });
  });
  beforeEach(() => {
    now = new Date('2026-03-01T10:00:00Z');
  });
  afterAll(() => harness.close());

  function begin() {
    return startSession(harness.deps.db, harness.deps, {
      userId: user.id,
      ipAddress: '192.0.2.1',
      userAgent: 'test',
    });
  }

  const CLIENT = refreshClient('192.0.2.1', 'test');

  function rotate(token: string, client = CLIENT): Promise<RefreshOutcome> {
    return harness.deps.db
      .transaction()
      .execute((trx) => rotateRefreshToken(trx, harness.deps, token, client));
  }

  function rotated(outcome: RefreshOutcome) {
    if (outcome.kind !== 'rotated') throw new Error(`expected a rotation, got ${outcome.kind}`);
    return outcome;
  }

  function sessionRow(id: string) {
    return harness.deps.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  it('stores only the SHA-256 of a 32-byte refresh token', async () => {
    const { sessionId, refreshToken } = await begin();
    expect(Buffer.from(refreshToken.token, 'base64url')).toHaveLength(32);
    const stored = await harness.deps.db
      .selectFrom('refresh_tokens')
      .select('token_hash')
      .where('session_id', '=', sessionId)
      .execute();
    expect(stored).toEqual([{ token_hash: hashOpaqueToken(refreshToken.token) }]);
    expect(stored[0]?.token_hash).not.toContain(refreshToken.token);
  });

  it('exchanges a refresh token for a new one in the same session', async () => {
    const { sessionId, refreshToken } = await begin();
    const outcome = await rotate(refreshToken.token);
    expect(outcome).toMatchObject({
      kind: 'rotated',
      sessionId,
      owner: { userId: user.id, accessScope: 'account' },
    });
    if (outcome.kind !== 'rotated') return;
    expect(outcome.refreshToken.token).not.toBe(refreshToken.token);
    expect((await rotate(outcome.refreshToken.token)).kind).toBe('rotated');
  });

  it('refuses a refresh token reused by another client and revokes its session', async () => {
    const { sessionId, refreshToken } = await begin();
    const first = rotated(await rotate(refreshToken.token));

    const thief = refreshClient('198.51.100.7', 'test');
    expect(await rotate(refreshToken.token, thief)).toMatchObject({ kind: 'reused', sessionId });
    expect(await sessionRow(sessionId)).toMatchObject({ revoked_reason: 'reuse_detected' });
    // The thief's copy is dead, and so is the successor the real user holds.
    expect((await rotate(first.refreshToken.token)).kind).toBe('rejected');
  });

  it('answers the same client presenting a spent token within the reuse interval with the same successor', async () => {
    const { sessionId, refreshToken } = await begin();
    const first = rotated(await rotate(refreshToken.token));

    now = new Date(now.getTime() + REFRESH_REUSE_INTERVAL_MS);
    const again = rotated(await rotate(refreshToken.token));
    expect(again.refreshToken).toEqual(first.refreshToken);
    expect((await sessionRow(sessionId)).revoked_at).toBeNull();

    // The successor works as usual; once it is spent, the first token's answer is gone.
    const second = rotated(await rotate(first.refreshToken.token));
    expect(await rotate(refreshToken.token)).toMatchObject({ kind: 'reused', sessionId });
    expect((await rotate(second.refreshToken.token)).kind).toBe('rejected');
  });

  it('treats the same client presenting a spent token after the reuse interval as reuse', async () => {
    const { sessionId, refreshToken } = await begin();
    rotated(await rotate(refreshToken.token));
    now = new Date(now.getTime() + REFRESH_REUSE_INTERVAL_MS + 1);
    expect(await rotate(refreshToken.token)).toMatchObject({ kind: 'reused', sessionId });
    expect(await sessionRow(sessionId)).toMatchObject({ revoked_reason: 'reuse_detected' });
  });

  it("keeps a spent token's successor only sealed under the spent token, and only for the newest one", async () => {
    const { sessionId, refreshToken } = await begin();
    const first = rotated(await rotate(refreshToken.token));
    const second = rotated(await rotate(first.refreshToken.token));
    const rows = await harness.deps.db
      .selectFrom('refresh_tokens')
      .select(['token_hash', 'spent_by', 'successor_sealed'])
      .where('session_id', '=', sessionId)
      .execute();
    const stored = JSON.stringify(rows);
    for (const token of [refreshToken, first.refreshToken, second.refreshToken]) {
      expect(stored).not.toContain(token.token);
      expect(stored).not.toContain(Buffer.from(token.token).toString('base64url'));
    }
    const sealed = rows.filter((row) => row.successor_sealed !== null);
    expect(sealed.map((row) => row.token_hash)).toEqual([hashOpaqueToken(first.refreshToken.token)]);
    expect(rows.find((row) => row.token_hash === hashOpaqueToken(refreshToken.token))?.spent_by).toBe(CLIENT);
  });

  it('answers two simultaneous refreshes of one client with one successor, and of two clients with reuse', async () => {
    const { refreshToken } = await begin();
    const sameClient = await Promise.all([rotate(refreshToken.token), rotate(refreshToken.token)]);
    const [first, second] = sameClient.map((outcome) => rotated(outcome).refreshToken.token);
    expect(first).toBe(second);

    const other = await begin();
    const twoClients = await Promise.all([
      rotate(other.refreshToken.token),
      rotate(other.refreshToken.token, refreshClient('198.51.100.7', 'test')),
    ]);
    expect(twoClients.map((outcome) => outcome.kind).sort()).toEqual(['reused', 'rotated']);
  });

  it('refuses an unknown or malformed token', async () => {
    expect((await rotate('A'.repeat(43))).kind).toBe('rejected');
    expect((await rotate('not a token')).kind).toBe('rejected');
  });

  it('refuses a token after its lifetime', async () => {
    const { refreshToken } = await begin();
    now = new Date(now.getTime() + 8 * HOUR + 1000);
    expect((await rotate(refreshToken.token)).kind).toBe('rejected');
  });

  it('slides the session forward on each refresh, but never past its absolute limit', async () => {
    const { sessionId, refreshToken } = await begin();
    const created = now.getTime();

    now = new Date(created + 7 * HOUR);
    const first = await rotate(refreshToken.token);
    if (first.kind !== 'rotated') throw new Error(`expected a rotation, got ${first.kind}`);
    expect(first.refreshToken.expiresAt.getTime()).toBe(created + 15 * HOUR);
    expect((await sessionRow(sessionId)).expires_at.getTime()).toBe(created + 15 * HOUR);

    now = new Date(created + 14 * HOUR);
    const second = await rotate(first.refreshToken.token);
    if (second.kind !== 'rotated') throw new Error(`expected a rotation, got ${second.kind}`);
    expect(second.refreshToken.expiresAt.getTime()).toBe(created + 22 * HOUR);

    now = new Date(created + 21 * HOUR);
    const third = await rotate(second.refreshToken.token);
    if (third.kind !== 'rotated') throw new Error(`expected a rotation, got ${third.kind}`);
    expect(third.refreshToken.expiresAt.getTime()).toBe(created + 24 * HOUR);

    now = new Date(created + 24 * HOUR);
    expect((await rotate(third.refreshToken.token)).kind).toBe('rejected');
  });

  it('refuses to refresh a session of a user who was deactivated', async () => {
    const other = await harness.createUser({ accessScope: 'account' });
    const { refreshToken } = await startSession(harness.deps.db, harness.deps, {
      userId: other.id,
      ipAddress: null,
      userAgent: null,
    });
    await harness.deps.db.updateTable('users').set({ active: false }).where('id', '=', other.id).execute();
    expect((await rotate(refreshToken.token)).kind).toBe('rejected');
  });

  it('ends every live session of one user but the one kept, and says how many ended', async () => {
    const owner = await harness.createUser({ accessScope: 'account' });
    const bystander = await harness.createUser({ accessScope: 'account' });
    const open = (userId: string) =>
      startSession(harness.deps.db, harness.deps, { userId, ipAddress: null, userAgent: null });
    const kept = await open(owner.id);
    const ended = [await open(owner.id), await open(owner.id)];
    const alreadyEnded = await open(owner.id);
    await harness.deps.db
      .updateTable('sessions')
      .set({ revoked_at: now, revoked_reason: 'logout' })
      .where('id', '=', alreadyEnded.sessionId)
      .execute();
    const other = await open(bystander.id);

    const count = await revokeUserSessions(harness.deps.db, owner.id, 'password_changed', now, {
      keep: kept.sessionId,
    });
    expect(count).toBe(2);
    expect((await sessionRow(kept.sessionId)).revoked_at).toBeNull();
    for (const session of ended) {
      expect(await sessionRow(session.sessionId)).toMatchObject({ revoked_reason: 'password_changed' });
      expect((await rotate(session.refreshToken.token)).kind).toBe('rejected');
    }
    // A session ended before keeps its first reason; another user's sessions are untouched.
    expect((await sessionRow(alreadyEnded.sessionId)).revoked_reason).toBe('logout');
    expect((await sessionRow(other.sessionId)).revoked_at).toBeNull();

    // Without one to keep, every live session of the user ends.
    expect(await revokeUserSessions(harness.deps.db, owner.id, 'password_reset', now)).toBe(1);
    expect((await sessionRow(kept.sessionId)).revoked_reason).toBe('password_reset');
  });
});
