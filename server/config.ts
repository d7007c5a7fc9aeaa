import path from 'node:path';

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
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${value}".`);
  }
  return parsed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    port: positiveInteger('PORT', env.PORT, 8080),
    host: env.HOST || 'localhost',
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
  };
}
