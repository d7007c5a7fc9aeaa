import * as v from 'valibot';
import { CONSOLE_LOCALES, PLATFORM_LOCALES } from '../locales.ts';
import { ACCESS_SCOPES } from '../permissions.ts';
import { userNameSchema } from '../validation.ts';

/**
 * The sign-in `state` query value: base64url of this JSON (overview §2). The console reads it on the
 * username step; the identity service writes it when it sends a user back to sign in.
 */
export const signInStateSchema = v.object({
  /** Where to go after sign-in, a path under the console base path. */
  return_path: v.optional(v.string()),
  login_hint: v.optional(v.string()),
  friendly_name: v.optional(v.string()),
  /** Set when the trust agent asked for the sign-in. */
  trust_agent_request: v.optional(v.boolean()),
  /** Set by flows that let an unknown user create an account ("Don't have an account? Create one"). */
  allow_account_creation: v.optional(v.boolean()),
  error: v.optional(v.picklist(['username_not_found'])),
});
export type SignInState = v.InferOutput<typeof signInStateSchema>;

/** POST login/verify: the username step. */
export const verifyUserRequestSchema = v.object({
  username: userNameSchema,
  state: v.optional(v.string()),
  language: v.optional(v.picklist([...CONSOLE_LOCALES, ...PLATFORM_LOCALES], 'invalidLocale')),
});
export type VerifyUserRequest = v.InferOutput<typeof verifyUserRequestSchema>;

/**
 * The step after Next. `password`: the identity service asks for the password of `login_hint`.
 * The answer is the same whether or not the user exists, so the username step reveals nothing.
 */
export const verifyUserResponseSchema = v.object({
  next: v.picklist(['password']),
  state: v.string(),
});
export type VerifyUserResponse = v.InferOutput<typeof verifyUserResponseSchema>;

/** POST auth/login: the password step. */
export const loginRequestSchema = v.object({
  username: userNameSchema,
  password: v.pipe(v.string('invalidType'), v.nonEmpty('required'), v.maxLength(1024, 'tooLong')),
});
export type LoginRequest = v.InferOutput<typeof loginRequestSchema>;

/**
 * Answer of login and refresh. Browsers get the refresh token only as an HttpOnly cookie; a client
 * that sent `refresh_token` in the body (an API client, the trust agent) gets the rotated one here.
 */
export const tokenResponseSchema = v.object({
  access_token: v.string(),
  /** ISO-8601 instant at which the access token expires, by the server's clock. */
  expires_at: v.pipe(v.string(), v.isoTimestamp()),
  /**
   * Seconds the token is valid from now (RFC 6749 §5.1). The console plans renewal by this, not by
   * `expires_at` against its own clock, which may be minutes off the server's. Optional: a server
   * that sends only `expires_at` is still understood.
   */
  expires_in: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  refresh_token: v.optional(v.string()),
});
export type TokenResponse = v.InferOutput<typeof tokenResponseSchema>;

/** Length in bytes of a user's storage secret: an AES-256 key-wrapping key. */
/**
 * A cookie page scripts may read, set and cleared with the HttpOnly refresh cookie and living as
 * long: without it the browser holds no refresh cookie, so a page start needs not ask the server
 * whether it has a session (docs/decisions/026-start-up-round-trips.md). It carries no secret.
 * Under HTTPS it takes the `__Secure-` prefix, as the refresh cookie does.
 */
export const SESSION_HINT_COOKIE = 'session_present';

export const STORAGE_SECRET_BYTES = 32;

/**
 * GET storage-secret: the user's storage secret, base64url without padding. The console wraps the
 * keys of its offline data with it; the server never sees those keys or that data.
 */
export const storageSecretSchema = v.object({
  secret: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/)),
});
export type StorageSecret = v.InferOutput<typeof storageSecretSchema>;

export const refreshRequestSchema = v.object({
  refresh_token: v.optional(v.pipe(v.string(), v.maxLength(512, 'tooLong'))),
});
export type RefreshRequest = v.InferOutput<typeof refreshRequestSchema>;

/** GET auth/me. */
export const authMeSchema = v.object({
  id: v.string(),
  user_name: v.string(),
  access_scope: v.picklist(ACCESS_SCOPES),
  primary_account_id: v.string(),
  /** The session of a signed-in person; null for a call made with an API token. */
  session_id: v.nullable(v.string()),
  /** The API token a call was made with; null for a session. */
  api_key_id: v.nullable(v.string()),
});
export type AuthMe = v.InferOutput<typeof authMeSchema>;

const optionalUrl = v.nullable(v.pipe(v.string(), v.maxLength(2048, 'tooLong'), v.url('invalidValue')));

/** GET login/customization (overview §7). Links that are not configured are null and not shown. */
export const loginCustomizationSchema = v.object({
  logo: v.nullable(v.pipe(v.string(), v.maxLength(200_000, 'tooLong'))),
  urls: v.object({
    termsOfUse: optionalUrl,
    privacyPolicy: optionalUrl,
    legalRepository: optionalUrl,
    webtrustAudit: optionalUrl,
    support: optionalUrl,
    contactUs: optionalUrl,
  }),
  copyright: v.nullable(v.pipe(v.string(), v.maxLength(256, 'tooLong'))),
});
export type LoginCustomization = v.InferOutput<typeof loginCustomizationSchema>;

/** Encode a sign-in state for the `state` query value. */
export function encodeSignInState(state: SignInState): string {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** Decode a `state` query value; anything unreadable is `null`, never an exception. */
export function decodeSignInState(encoded: string | null | undefined): SignInState | null {
  if (!encoded) return null;
  try {
    const binary = atob(encoded.replaceAll('-', '+').replaceAll('_', '/'));
    const json = new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
    const parsed = v.safeParse(signInStateSchema, JSON.parse(json));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** GET clientAuthLoginUrl: the console's sign-in page on the configured public address. */
export const clientAuthLoginUrlSchema = v.object({ url: v.string() });
export type ClientAuthLoginUrl = v.InferOutput<typeof clientAuthLoginUrlSchema>;
