import {
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessTokenClaims } from '../../../server/identity/tokens.ts';
import { issueAccessToken, verifyAccessToken } from '../../../server/identity/tokens.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

const claims: AccessTokenClaims = {
  userId: 'user-1',
  sessionId: 'session-1',
  accessScope: 'account',
  primaryAccountId: 'account-1',
};

function kidOf(token: string): string {
  return decodeProtectedHeader(token).kid ?? '';
}

describe('access tokens', () => {
  let harness: TestApp;
  let now = new Date('2026-03-01T10:00:00Z');
  beforeAll(async () => {
    harness = await createTestApp({ now: () => now });
  });
  afterAll(() => harness.close());

  it('carries sub, sid, scope, acc, iat, exp and a kid, and verifies back to the same claims', async () => {
    const { token, expiresAt } = await issueAccessToken(harness.deps, claims);
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
    expect(header).toMatchObject({ alg: 'ES256', kid: expect.any(String) });
    expect(payload).toEqual({
      sub: 'user-1',
      sid: 'session-1',
      scope: 'account',
      acc: 'account-1',
      iat: now.getTime() / 1000,
      exp: now.getTime() / 1000 + harness.deps.config.accessTokenTtlSeconds,
    });
    expect(expiresAt.getTime()).toBe(now.getTime() + harness.deps.config.accessTokenTtlSeconds * 1000);
    expect(await verifyAccessToken(harness.deps, token)).toEqual(claims);
  });

  it('creates a single signing key when several processes need one at the same moment', async () => {
    await harness.deps.db.updateTable('signing_keys').set({ retired_at: now }).execute();
    // Each Kysely instance has its own key cache, as a separate server process would.
    const processes = [1, 2, 3].map(() => ({ ...harness.deps, db: harness.deps.db.withTables() }));
    const tokens = await Promise.all(processes.map((deps) => issueAccessToken(deps, claims)));
    const kids = new Set(tokens.map(({ token }) => kidOf(token)));
    const active = await harness.deps.db
      .selectFrom('signing_keys')
      .select('kid')
      .where('retired_at', 'is', null)
      .execute();
    expect(active).toHaveLength(1);
    expect([...kids]).toEqual([active[0]?.kid]);
  });

  it('rejects an expired token', async () => {
    const { token } = await issueAccessToken(harness.deps, claims);
    const issuedAt = now;
    now = new Date(issuedAt.getTime() + harness.deps.config.accessTokenTtlSeconds * 1000 + 1000);
    try {
      expect(await verifyAccessToken(harness.deps, token)).toBeNull();
    } finally {
      now = issuedAt;
    }
  });

  it('rejects a token signed by another key under a known kid', async () => {
    const { token } = await issueAccessToken(harness.deps, claims);
    const kid = kidOf(token);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sid: 'session-1', scope: 'system', acc: 'account-1' })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject('user-1')
      .setIssuedAt(now)
      .setExpirationTime(new Date(now.getTime() + 60_000))
      .sign(privateKey);
    expect(await verifyAccessToken(harness.deps, forged)).toBeNull();
  });

  it('rejects a token with an unknown kid', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sid: 'session-1', scope: 'system', acc: 'account-1' })
      .setProtectedHeader({ alg: 'ES256', kid: 'es256-999' })
      .setSubject('user-1')
      .setIssuedAt(now)
      .setExpirationTime(new Date(now.getTime() + 60_000))
      .sign(privateKey);
    expect(await verifyAccessToken(harness.deps, forged)).toBeNull();
  });

  it('rejects an unsigned token (alg none)', async () => {
    const unsigned = new UnsecuredJWT({ sid: 'session-1', scope: 'system', acc: 'account-1' })
      .setSubject('user-1')
      .setIssuedAt(now)
      .setExpirationTime(new Date(now.getTime() + 60_000))
      .encode();
    expect(await verifyAccessToken(harness.deps, unsigned)).toBeNull();
  });

  it('rejects an HS256 token keyed with the public key', async () => {
    const { token } = await issueAccessToken(harness.deps, claims);
    const kid = kidOf(token);
    const row = await harness.deps.db
      .selectFrom('signing_keys')
      .select('public_jwk')
      .where('kid', '=', kid)
      .executeTakeFirstOrThrow();
    const secret = new TextEncoder().encode(JSON.stringify(row.public_jwk));
    const forged = await new SignJWT({ sid: 'session-1', scope: 'system', acc: 'account-1' })
      .setProtectedHeader({ alg: 'HS256', kid })
      .setSubject('user-1')
      .setIssuedAt(now)
      .setExpirationTime(new Date(now.getTime() + 60_000))
      .sign(secret);
    expect(await verifyAccessToken(harness.deps, forged)).toBeNull();
  });

  it('verifies a token signed by a key another process created after this one cached its own', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    await harness.deps.db
      .insertInto('signing_keys')
      .values({
        kid: 'es256-other-process',
        algorithm: 'ES256',
        private_jwk: JSON.stringify(await exportJWK(privateKey)),
        public_jwk: JSON.stringify(await exportJWK(publicKey)),
        created_at: now,
        retired_at: null,
      })
      .execute();
    const token = await new SignJWT({ sid: 'session-1', scope: 'account', acc: 'account-1' })
      .setProtectedHeader({ alg: 'ES256', kid: 'es256-other-process' })
      .setSubject('user-1')
      .setIssuedAt(now)
      .setExpirationTime(new Date(now.getTime() + 60_000))
      .sign(privateKey);
    expect(await verifyAccessToken(harness.deps, token)).toEqual(claims);
  });

  it('rejects a correctly signed token that lacks its session claim', async () => {
    const { token } = await issueAccessToken(harness.deps, claims);
    const kid = kidOf(token);
    const row = await harness.deps.db
      .selectFrom('signing_keys')
      .select('private_jwk')
      .where('kid', '=', kid)
      .executeTakeFirstOrThrow();
    const privateKey = await importJWK(row.private_jwk as JWK, 'ES256');
    const withoutSession = await new SignJWT({ scope: 'account', acc: 'account-1' })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject('user-1')
      .setIssuedAt(now)
      .setExpirationTime(new Date(now.getTime() + 60_000))
      .sign(privateKey);
    expect(await verifyAccessToken(harness.deps, withoutSession)).toBeNull();
  });
});
