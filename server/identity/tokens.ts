import {
  type CryptoKey,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTVerifyGetKey,
  jwtVerify,
  SignJWT,
} from 'jose';
import { type Kysely, sql } from 'kysely';
import * as v from 'valibot';
import { ACCESS_SCOPES, type AccessScope } from '../../contract/permissions.ts';
import type { AppDeps } from '../app-deps.ts';
import type { Database } from '../db/schema.ts';

const ALGORITHM = 'ES256';
const KID_PREFIX = 'es256-';

/** What an access token says about its holder. */
export interface AccessTokenClaims {
  userId: string;
  sessionId: string;
  accessScope: AccessScope;
  primaryAccountId: string;
}

export interface IssuedAccessToken {
  token: string;
  expiresAt: Date;
  /** Seconds the token is valid from its issue: what a client with a skewed clock plans its renewal by. */
  lifetimeSeconds: number;
}

type TokenDeps = Pick<AppDeps, 'db' | 'config' | 'now'>;

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

/**
 * Keys of one database, kept per process. The signing key is loaded (or created) once; verification
 * keys are added as tokens with new kids arrive, so a key created by another process is picked up
 * on the first token it signed.
 */
interface KeyCache {
  signing: Promise<SigningKey> | undefined;
  verification: Map<string, Promise<CryptoKey | null>>;
}

const keyCaches = new WeakMap<Kysely<Database>, KeyCache>();

function keyCacheOf(db: Kysely<Database>): KeyCache {
  let cache = keyCaches.get(db);
  if (!cache) {
    cache = { signing: undefined, verification: new Map() };
    keyCaches.set(db, cache);
  }
  return cache;
}

function newestActiveKey(db: Kysely<Database>) {
  return db
    .selectFrom('signing_keys')
    .select(['kid', 'private_jwk'])
    .where('retired_at', 'is', null)
    .where('algorithm', '=', ALGORITHM)
    .orderBy('created_at', 'desc')
    .orderBy('kid', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The newest unretired key, created when there is none. Creation happens under a transaction-scoped
 * advisory lock with a second look inside it, so processes that start together make exactly one key
 * and every one of them signs with it.
 */
async function loadOrCreateSigningKey({ db, now }: TokenDeps): Promise<SigningKey> {
  const row =
    (await newestActiveKey(db)) ??
    (await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('signing_keys'))`.execute(trx);
      const created = await newestActiveKey(trx);
      if (created) return created;
      const { count } = await trx
        .selectFrom('signing_keys')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
      return trx
        .insertInto('signing_keys')
        .values({
          kid: `${KID_PREFIX}${Number(count) + 1}`,
          algorithm: ALGORITHM,
          private_jwk: JSON.stringify(await exportJWK(privateKey)),
          public_jwk: JSON.stringify(await exportJWK(publicKey)),
          created_at: now(),
          retired_at: null,
        })
        .returning(['kid', 'private_jwk'])
        .executeTakeFirstOrThrow();
    }));
  return { kid: row.kid, privateKey: await importKey(row.private_jwk) };
}

function importKey(jwk: Record<string, unknown>): Promise<CryptoKey> {
  return importJWK(jwk as JWK, ALGORITHM) as Promise<CryptoKey>;
}

function signingKey(deps: TokenDeps): Promise<SigningKey> {
  const cache = keyCacheOf(deps.db);
  cache.signing ??= loadOrCreateSigningKey(deps).catch((error: unknown) => {
    cache.signing = undefined;
    throw error;
  });
  return cache.signing;
}

/**
 * The public key of `kid`, or null when the database has none. A key retired longer ago than an
 * access token lives can no longer have signed a valid token, so it no longer verifies one.
 */
async function loadVerificationKey({ db, config, now }: TokenDeps, kid: string): Promise<CryptoKey | null> {
  const oldestUsefulRetirement = new Date(now().getTime() - config.accessTokenTtlSeconds * 1000);
  const row = await db
    .selectFrom('signing_keys')
    .select('public_jwk')
    .where('kid', '=', kid)
    .where('algorithm', '=', ALGORITHM)
    .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', oldestUsefulRetirement)]))
    .executeTakeFirst();
  return row ? importKey(row.public_jwk) : null;
}

function verificationKey(deps: TokenDeps, kid: string): Promise<CryptoKey | null> {
  const { verification } = keyCacheOf(deps.db);
  let key = verification.get(kid);
  if (!key) {
    key = loadVerificationKey(deps, kid);
    verification.set(kid, key);
    // Unknown kids are not remembered: the key may be created later, and a flood of made-up kids
    // must not grow this map.
    const forget = () => verification.delete(kid);
    key.then((found) => {
      if (!found) forget();
    }, forget);
  }
  return key;
}

export async function issueAccessToken(
  deps: TokenDeps,
  claims: AccessTokenClaims,
): Promise<IssuedAccessToken> {
  const { kid, privateKey } = await signingKey(deps);
  const issuedAt = Math.floor(deps.now().getTime() / 1000);
  const expiresAtSeconds = issuedAt + deps.config.accessTokenTtlSeconds;
  const token = await new SignJWT({
    sid: claims.sessionId,
    scope: claims.accessScope,
    acc: claims.primaryAccountId,
  })
    .setProtectedHeader({ alg: ALGORITHM, kid, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAtSeconds)
    .sign(privateKey);
  return {
    token,
    expiresAt: new Date(expiresAtSeconds * 1000),
    lifetimeSeconds: deps.config.accessTokenTtlSeconds,
  };
}

const payloadSchema = v.object({
  sub: v.string(),
  sid: v.string(),
  scope: v.picklist(ACCESS_SCOPES),
  acc: v.string(),
});

class UnknownKeyError extends Error {}

/**
 * The claims of a valid access token, or null for anything else: another algorithm (`none`, HS256
 * with the public key as secret …), a bad signature, an unknown or retired kid, an expired token,
 * missing claims. Whether the session is still alive is the caller's second check.
 */
export async function verifyAccessToken(deps: TokenDeps, token: string): Promise<AccessTokenClaims | null> {
  const getKey: JWTVerifyGetKey = async ({ kid }) => {
    const key = kid ? await verificationKey(deps, kid) : null;
    if (!key) throw new UnknownKeyError();
    return key;
  };
  try {
    const { payload } = await jwtVerify(token, getKey, {
      algorithms: [ALGORITHM],
      currentDate: deps.now(),
      requiredClaims: ['sub', 'sid', 'iat', 'exp'],
    });
    const claims = v.safeParse(payloadSchema, payload);
    if (!claims.success) return null;
    return {
      userId: claims.output.sub,
      sessionId: claims.output.sid,
      accessScope: claims.output.scope,
      primaryAccountId: claims.output.acc,
    };
  } catch (error) {
    // Token faults are the caller's; anything else (the database is down) must not pass as a 401.
    if (error instanceof errors.JOSEError || error instanceof UnknownKeyError) return null;
    throw error;
  }
}
