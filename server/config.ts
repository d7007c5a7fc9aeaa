import path from 'node:path';
import * as v from 'valibot';
import { emailSchema } from '../contract/validation.ts';

/** Settings of the platform API, read once from the environment (see README, "Configuration"). */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… to use PostgreSQL; absent means PGlite in `dataDir`. */
  databaseUrl: string | null;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Absolute limit of one sign-in session, however often it is refreshed. */
  sessionMaxAgeSeconds: number;
  licencePublicKeyFile: string | null;
  licenceExpiredRedirectUrl: string;
  consoleDistDir: string;
  trustProxy: boolean;
  /**
   * smtp://… or smtps://… (nodemailer reads its query options); null writes each message as an
   * `.eml` file under `<dataDir>/mail` instead (docs/decisions/018-users-roles-and-tokens.md §6.1).
   */
  smtpUrl: string | null;
  /**
   * The origin every link in a message is built on, never a request's Host header: a forged host in
   * a reset link would hand the reset code to whoever owns it.
   */
  publicUrl: string;
  /** Whether PUBLIC_URL was set, or `publicUrl` is the `http://HOST:PORT` default. */
  publicUrlConfigured: boolean;
  /** Sender address of every message. */
  mailFrom: string;
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${value}".`);
  }
  return parsed;
}

/**
 * The SMTP server's URL. The message never repeats the value: it usually carries the SMTP password.
 */
function smtpUrl(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  const parsed = URL.parse(value);
  if (parsed === null || !['smtp:', 'smtps:'].includes(parsed.protocol) || parsed.hostname === '') {
    throw new Error(
      'SMTP_URL must be an smtp:// or smtps:// URL with a host, such as smtp://user:password@mail.example.com:587 (its value is not shown because it may hold a password).',
    );
  }
  return value;
}

/**
 * An origin (http or https, no credentials, path, query or fragment): the console is served at a
 * fixed path under it, so links are `new URL('/account/…', publicUrl)`.
 */
function publicUrl(value: string): string {
  const parsed = URL.parse(value);
  const problem =
    parsed === null || !['http:', 'https:'].includes(parsed.protocol)
      ? 'must be an absolute http:// or https:// URL'
      : parsed.username !== '' || parsed.password !== ''
        ? 'must not hold a user name or password'
        : parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== ''
          ? 'must have no path, query or fragment'
          : null;
  if (problem !== null || parsed === null) {
    throw new Error(`PUBLIC_URL ${problem}, such as https://console.example.com; got "${value}".`);
  }
  return parsed.origin;
}

function mailFrom(value: string | undefined, publicOrigin: string): string {
  if (value === undefined || value === '') return `no-reply@${new URL(publicOrigin).hostname}`;
  const parsed = v.safeParse(emailSchema, value);
  if (!parsed.success) throw new Error(`MAIL_FROM must be an e-mail address, got "${value}".`);
  return parsed.output;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = positiveInteger('PORT', env.PORT, 8080);
  const host = env.HOST || 'localhost';
  const publicOrigin = publicUrl(
    env.PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
  );
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    databaseUrl: env.DATABASE_URL || null,
    accessTokenTtlSeconds: positiveInteger('ACCESS_TOKEN_TTL_SECONDS', env.ACCESS_TOKEN_TTL_SECONDS, 600),
    refreshTokenTtlSeconds: positiveInteger(
      'REFRESH_TOKEN_TTL_SECONDS',
      env.REFRESH_TOKEN_TTL_SECONDS,
      8 * 3600,
    ),
    sessionMaxAgeSeconds: positiveInteger(
      'SESSION_MAX_AGE_SECONDS',
      env.SESSION_MAX_AGE_SECONDS,
      7 * 24 * 3600,
    ),
    licencePublicKeyFile: env.LICENCE_PUBLIC_KEY_FILE || null,
    licenceExpiredRedirectUrl: env.LICENCE_EXPIRED_REDIRECT_URL || '/account/updateLicenseError',
    consoleDistDir: path.resolve(env.CONSOLE_DIST_DIR || 'dist/console'),
    trustProxy: env.TRUST_PROXY === 'true',
    smtpUrl: smtpUrl(env.SMTP_URL),
    publicUrl: publicOrigin,
    publicUrlConfigured: Boolean(env.PUBLIC_URL),
    mailFrom: mailFrom(env.MAIL_FROM, publicOrigin),
  };
}
