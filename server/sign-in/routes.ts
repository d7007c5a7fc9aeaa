import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'hono';
import { Hono } from 'hono';
import {
  type AuthMe,
  authMeSchema,
  decodeSignInState,
  encodeSignInState,
  type LoginCustomization,
  loginCustomizationSchema,
  loginRequestSchema,
  refreshRequestSchema,
  type StorageSecret,
  storageSecretSchema,
  type TokenResponse,
  tokenResponseSchema,
  type VerifyUserResponse,
  verifyUserRequestSchema,
  verifyUserResponseSchema,
} from '../../contract/schemas/identity.ts';
import type { AppDeps } from '../app-deps.ts';
import { auditChange, updateDetails } from '../audit/change.ts';
import { recordAuditEvent } from '../audit/record.ts';
import { requireSystemScope } from '../authorization/permissions.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { assertWellFormedIfMatch, entityTag } from '../http/entity-tags.ts';
import { errorResponse } from '../http/errors.ts';
import { invalidField, validateJson } from '../http/validate.ts';
import { requireAuth, requireSession, sessionIdOf } from '../identity/authenticate.ts';
import { inPasswordHashingTurn, verifyPassword, warmUpPasswordHashing } from '../identity/passwords.ts';
import {
  accessScopeOf,
  refreshClient,
  revokeSession,
  rotateRefreshToken,
  type SessionOwner,
  startSession,
} from '../identity/sessions.ts';
import { checkSignInThrottle, clearSignInFailures, recordSignInFailure } from '../identity/throttle.ts';
import { type IssuedAccessToken, issueAccessToken } from '../identity/tokens.ts';
import { assertChangeOnVersion } from '../resources/versioned-resource.ts';
import {
  firstNonWebLink,
  lockLoginCustomization,
  readLoginCustomization,
  saveLoginCustomization,
} from './login-customization.ts';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie.ts';
import { findPersonSigningIn, recordSignInTime } from './repository.ts';
import { storageSecretOf } from './storage-secrets.ts';
import { presentedDevices, setDeviceCookie, trustDevice } from './trusted-devices.ts';

const INVALID_CREDENTIALS = 'Invalid username or password.';
const INVALID_REFRESH_TOKEN = 'The session has ended. Sign in again.';

/** Why a sign-in failed, for the audit trail only; the caller always gets the same 401. */
type SignInFailure = 'unknown_user' | 'no_password' | 'wrong_password' | 'inactive_user';

function signInFailure(
  user: { password_hash: string | null; active: boolean } | undefined,
  passwordMatches: boolean,
): SignInFailure | null {
  if (!user) return 'unknown_user';
  if (user.password_hash === null) return 'no_password';
  if (!passwordMatches) return 'wrong_password';
  // After the password: the audit trail tells a disabled account apart, the caller still gets a 401.
  if (!user.active) return 'inactive_user';
  return null;
}

/** Token answers must not be kept by the browser or any cache between it and the server. */
/**
 * The sign-in page settings as the fields an UPDATE event names: the links under `urls.`. The logo
 * is an image of up to 200 kB; the trail says that it changed, not what it became.
 */
function trailFieldsOf(customization: LoginCustomization): Record<string, unknown> {
  const { urls, ...rest } = customization;
  return { ...rest, ...Object.fromEntries(Object.entries(urls).map(([name, url]) => [`urls.${name}`, url])) };
}

const DISCLOSED_CUSTOMIZATION_FIELDS = [
  'copyright',
  ...Object.keys(loginCustomizationSchema.entries.urls.entries).map((name) => `urls.${name}`),
];

function noStore(c: Context): void {
  c.header('Cache-Control', 'no-store');
  c.header('Pragma', 'no-cache');
}

function tokenBody(accessToken: IssuedAccessToken, refreshToken?: string): TokenResponse {
  return {
    access_token: accessToken.token,
    expires_at: accessToken.expiresAt.toISOString(),
    expires_in: accessToken.lifetimeSeconds,
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
  };
}

function accessTokenFor(deps: AppDeps, sessionId: string, owner: SessionOwner): Promise<IssuedAccessToken> {
  return issueAccessToken(deps, {
    userId: owner.userId,
    sessionId,
    accessScope: owner.accessScope,
    primaryAccountId: owner.primaryAccountId,
  });
}

/** The identity service (/imauth/api/v1), described in docs/api.md. */
export function identityRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();
  const authenticated = requireAuth(deps);
  // The first sign-in of an unknown user must not be the one that pays for the dummy hash.
  warmUpPasswordHashing();

  app.post(
    '/login/verify',
    describeOperation({
      tag: 'Sign-in',
      summary: 'Username step: answers the next step, the same whether or not the user exists.',
      success: { status: 200, description: 'Next step', schema: verifyUserResponseSchema },
      failures: [400],
    }),
    validateJson(verifyUserRequestSchema),
    (c) => {
      const { username, state } = c.req.valid('json');
      // The previous step's error is not carried forward; everything else (return path …) is.
      const { error: _previousError, ...incoming } = decodeSignInState(state) ?? {};
      const body: VerifyUserResponse = {
        next: 'password',
        state: encodeSignInState({ ...incoming, login_hint: username }),
      };
      noStore(c);
      return c.json(body);
    },
  );

  app.post(
    '/auth/login',
    describeOperation({
      tag: 'Sign-in',
      summary: 'Password step: issues an access token and sets the refresh and trusted-device cookies.',
      success: { status: 200, description: 'Signed in', schema: tokenResponseSchema },
      failures: [400, 401, 429],
    }),
    validateJson(loginRequestSchema),
    async (c) => {
      const { username, password } = c.req.valid('json');
      const ipAddress = clientAddress(c, config);
      noStore(c);

      const user = await findPersonSigningIn(db, username);
      const devices = await presentedDevices(db, c, config, deps.now());
      const device = user ? devices.find((known) => known.userId === user.id) : undefined;
      const attempt = { userName: username, address: ipAddress, deviceId: device?.id ?? null };

      const verdict = await checkSignInThrottle(db, deps.now(), attempt);
      if (verdict.kind === 'blocked') {
        c.header('Retry-After', String(verdict.retryAfterSeconds));
        return errorResponse(c, 429, 'Too many failed sign-in attempts. Try again later.');
      }
      if (verdict.delayMs > 0) await sleep(verdict.delayMs);

      // Always one argon2 verification, whatever is wrong, so timing does not tell the cases apart.
      const hashingClient = verdict.trustedDevice && device ? `device:${device.id}` : `ip:${ipAddress}`;
      const passwordMatches = await inPasswordHashingTurn(hashingClient, () =>
        verifyPassword(user?.password_hash ?? null, password),
      );
      const failure = signInFailure(user, passwordMatches);

      if (failure !== null || !user) {
        await db.transaction().execute(async (trx) => {
          await recordSignInFailure(trx, deps.now(), attempt, verdict);
          await recordAuditEvent(trx, {
            action: 'LOGIN_ERROR',
            status: 'failure',
            resourceType: 'BASIC_AUTH',
            resourceId: user?.id ?? null,
            accountId: user?.primary_account_id ?? null,
            actorId: user?.id ?? null,
            actorName: username,
            ipAddress,
            userAgent: c.req.header('User-Agent') ?? null,
            details: { reason: failure },
            occurredAt: deps.now(),
          });
        });
        return errorResponse(c, 401, INVALID_CREDENTIALS);
      }

      const { session, deviceTokens } = await db.transaction().execute(async (trx) => {
        await clearSignInFailures(trx, attempt);
        await recordSignInTime(trx, user.id, deps.now());
        const started = await startSession(trx, deps, {
          userId: user.id,
          ipAddress,
          userAgent: c.req.header('User-Agent') ?? null,
        });
        await recordAuditEvent(trx, {
          action: 'LOGIN',
          status: 'success',
          resourceType: 'BASIC_AUTH',
          resourceId: user.id,
          accountId: user.primary_account_id,
          actorId: user.id,
          actorName: user.user_name,
          ipAddress,
          userAgent: c.req.header('User-Agent') ?? null,
          details: { session_id: started.sessionId, known_device: device !== undefined },
          occurredAt: deps.now(),
        });
        return { session: started, deviceTokens: await trustDevice(trx, user.id, devices, deps.now()) };
      });
      const accessToken = await accessTokenFor(deps, session.sessionId, {
        userId: user.id,
        userName: user.user_name,
        accessScope: accessScopeOf(user.access_scope),
        primaryAccountId: user.primary_account_id,
      });
      setRefreshCookie(c, config, session.refreshToken, deps.now());
      setDeviceCookie(c, config, deviceTokens);
      return c.json(tokenBody(accessToken));
    },
  );

  app.post(
    '/refresh',
    describeOperation({
      tag: 'Sign-in',
      summary:
        'Exchanges the refresh token (cookie or body) for a new pair; a spent token ends the session, unless the same client presents it again within 10 s, which answers the same successor.',
      success: { status: 200, description: 'New tokens', schema: tokenResponseSchema },
      failures: [400, 401],
    }),
    validateJson(refreshRequestSchema),
    async (c) => {
      const fromBody = c.req.valid('json').refresh_token;
      const presented = fromBody ?? readRefreshCookie(c, config);
      noStore(c);
      if (!presented) {
        clearRefreshCookie(c, config);
        return errorResponse(c, 401, INVALID_REFRESH_TOKEN);
      }
      const ipAddress = clientAddress(c, config);
      const userAgent = c.req.header('User-Agent') ?? null;
      const outcome = await db.transaction().execute(async (trx) => {
        const result = await rotateRefreshToken(trx, deps, presented, refreshClient(ipAddress, userAgent));
        if (result.kind === 'reused') {
          await recordAuditEvent(trx, {
            action: 'LOGOUT',
            status: 'failure',
            resourceType: 'USER',
            resourceId: result.owner.userId,
            accountId: result.owner.primaryAccountId,
            actorId: result.owner.userId,
            actorName: result.owner.userName,
            ipAddress,
            userAgent,
            details: { session_id: result.sessionId, reason: 'reuse_detected' },
            occurredAt: deps.now(),
          });
        }
        return result;
      });
      if (outcome.kind !== 'rotated') {
        clearRefreshCookie(c, config);
        return errorResponse(c, 401, INVALID_REFRESH_TOKEN);
      }
      const accessToken = await accessTokenFor(deps, outcome.sessionId, outcome.owner);
      setRefreshCookie(c, config, outcome.refreshToken, deps.now());
      return c.json(tokenBody(accessToken, fromBody === undefined ? undefined : outcome.refreshToken.token));
    },
  );

  app.post(
    '/logout',
    describeOperation({
      tag: 'Sign-in',
      summary: 'Ends the session of the access token and clears the refresh cookie.',
      success: { status: 204, description: 'Signed out' },
      failures: [403],
    }),
    authenticated,
    requireSession(),
    async (c) => {
      const principal = c.var.principal;
      const sessionId = sessionIdOf(principal);
      await db.transaction().execute(async (trx) => {
        await revokeSession(trx, sessionId, 'logout', deps.now());
        await recordAuditEvent(trx, {
          action: 'LOGOUT',
          status: 'success',
          resourceType: 'USER',
          resourceId: principal.userId,
          accountId: principal.primaryAccountId,
          actorId: principal.userId,
          actorName: principal.userName,
          ipAddress: clientAddress(c, config),
          userAgent: c.req.header('User-Agent') ?? null,
          details: { session_id: sessionId },
          occurredAt: deps.now(),
        });
      });
      clearRefreshCookie(c, config);
      return c.body(null, 204);
    },
  );

  app.get(
    '/auth/me',
    describeOperation({
      tag: 'Sign-in',
      summary: 'The signed-in user.',
      success: { status: 200, description: 'Signed-in user', schema: authMeSchema },
      failures: [],
    }),
    authenticated,
    (c) => {
      const principal = c.var.principal;
      const body: AuthMe = {
        id: principal.userId,
        user_name: principal.userName,
        access_scope: principal.accessScope,
        primary_account_id: principal.primaryAccountId,
        session_id: principal.credential.kind === 'session' ? principal.credential.sessionId : null,
        api_key_id: principal.credential.kind === 'apiToken' ? principal.credential.tokenId : null,
      };
      return c.json(body);
    },
  );

  app.get(
    '/storage-secret',
    describeOperation({
      tag: 'Sign-in',
      summary:
        "The signed-in user's storage secret (32 random bytes, base64url), made on first request; the console wraps the keys of its offline data with it. Cache-Control: no-store.",
      success: { status: 200, description: 'Storage secret', schema: storageSecretSchema },
      failures: [403],
    }),
    authenticated,
    requireSession(),
    async (c) => {
      const body: StorageSecret = { secret: await storageSecretOf(db, c.var.principal.userId) };
      // A key-wrapping secret: no cache between here and the console may keep it, and it is never logged.
      noStore(c);
      return c.json(body);
    },
  );

  app.get(
    '/login/customization',
    describeOperation({
      tag: 'Sign-in',
      summary: 'Logo, footer links and copyright of the sign-in page; ETag is their version ("0" until set).',
      success: {
        status: 200,
        description: 'Sign-in page settings',
        schema: loginCustomizationSchema,
        etag: true,
      },
      failures: [],
    }),
    async (c) => {
      const { customization, version } = await readLoginCustomization(db);
      c.header('ETag', entityTag(version));
      return c.json(customization);
    },
  );

  app.put(
    '/login/customization',
    describeOperation({
      tag: 'Sign-in',
      summary:
        'Changes the sign-in page settings (system scope, manage system settings); If-Match is honoured.',
      success: { status: 200, description: 'Stored settings', schema: loginCustomizationSchema, etag: true },
      failures: [400, 403, 413, 415],
      ifMatch: { required: false, current: loginCustomizationSchema },
    }),
    authenticated,
    requireSystemScope('MANAGE_SYSTEM_SETTINGS'),
    validateJson(loginCustomizationSchema),
    async (c) => {
      const customization: LoginCustomization = c.req.valid('json');
      const unsafeLink = firstNonWebLink(customization);
      if (unsafeLink !== null) {
        throw invalidField(`urls.${unsafeLink}`, 'invalidValue');
      }
      const principal = c.var.principal;
      const ifMatch = c.req.header('If-Match');
      assertWellFormedIfMatch(ifMatch, 'sign-in page settings');
      const version = await db.transaction().execute(async (trx) => {
        await lockLoginCustomization(trx);
        const stored = await readLoginCustomization(trx);
        await assertChangeOnVersion(ifMatch, 'honoured', {
          subject: 'sign-in page settings',
          changed: 'The sign-in page settings were changed meanwhile. Reload them and try again.',
          version: stored.version,
          current: () => stored.customization,
        });
        const saved = await saveLoginCustomization(trx, customization, deps.now());
        await auditChange(trx, c, deps, {
          action: 'UPDATE',
          resourceType: 'ACCOUNT',
          resourceId: principal.primaryAccountId,
          accountId: principal.primaryAccountId,
          details: updateDetails(
            trailFieldsOf(stored.customization),
            trailFieldsOf(customization),
            DISCLOSED_CUSTOMIZATION_FIELDS,
          ),
        });
        return saved;
      });
      c.header('ETag', entityTag(version));
      return c.json(customization);
    },
  );

  return app;
}
