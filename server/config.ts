import path from 'node:path';
import * as v from 'valibot';
import { CA_KEY_ALGORITHMS, type CaKeyAlgorithm } from '../contract/certificate-policy.ts';
import { emailSchema } from '../contract/validation.ts';
import { parseTrustProxy, type TrustedProxies } from './http/trusted-proxies.ts';

/** Where the CA's private keys are kept (decision 019, custody). */
export type CaCustodyConfig =
  /**
   * PKCS#8 sealed with AES-256-GCM under the 32-byte key in `keyFile`. `generated`: the key file is
   * the default one in the data directory, created on first use (embedded database only).
   */
  | { kind: 'encrypted'; keyFile: string; generated: boolean }
  /** Keys generated on a PKCS#11 token, never extractable. */
  | { kind: 'pkcs11'; module: string; tokenLabel: string; pinFile: string };

/** The default key-encryption key of the embedded database, `DATA_DIR/<this>`. */
export const DEFAULT_CA_KEY_ENCRYPTION_KEY_FILE = 'ca-key-encryption.key';

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
  /**
   * Whose X-Forwarded-* headers are believed (decision 031): the listed proxies; `true` any peer (the
   * old meaning, warned about at start); `false` none.
   */
  trustProxy: boolean | TrustedProxies;
  /**
   * smtp://… or smtps://… (nodemailer reads its query options); null writes each message as an
   * `.eml` file under `<dataDir>/mail` instead (docs/decisions/037-mail.md §1).
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
  /** Key algorithm of CAs created from now on; an existing CA keeps the one its row records. */
  caKeyAlgorithm: CaKeyAlgorithm;
  /** Names the CAs: "CN=<caName> Root CA, O=<caName>". */
  caName: string;
  caCustody: CaCustodyConfig;
  /** How long a CRL stays current (its nextUpdate); it is re-signed well before. */
  crlValidityHours: number;
  /** The client-tools catalogue: the trust agent's packages and `catalogue.json`'s tools. */
  clientToolsDir: string;
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

function caName(value: string | undefined): string {
  const name = (value ?? '').trim();
  if (name === '') return 'Trust Console';
  if (name.length > 50 || /[\p{Cc}]/u.test(name)) {
    throw new Error('CA_NAME must be at most 50 characters with no control characters.');
  }
  return name;
}

function caKeyAlgorithm(value: string | undefined): CaKeyAlgorithm {
  if (value === undefined || value === '') return 'ECDSA-P384';
  if (!(CA_KEY_ALGORITHMS as readonly string[]).includes(value)) {
    throw new Error(`CA_KEY_ALGORITHM must be one of ${CA_KEY_ALGORITHMS.join(', ')}; got "${value}".`);
  }
  return value as CaKeyAlgorithm;
}

/**
 * The CA's key custody. Only file names are read here (never their content, never logged); a
 * PostgreSQL deployment must name its custody: a key file generated beside a shared database would
 * leave each server process with a key of its own.
 */
function caCustody(env: NodeJS.ProcessEnv, dataDir: string, databaseUrl: string | null): CaCustodyConfig {
  const keyFile = env.CA_KEY_ENCRYPTION_KEY_FILE || null;
  const p11 = {
    module: env.CA_PKCS11_MODULE || null,
    tokenLabel: env.CA_PKCS11_TOKEN_LABEL || null,
    pinFile: env.CA_PKCS11_PIN_FILE || null,
  };
  const p11Given = Object.values(p11).some((value) => value !== null);
  if (keyFile !== null && p11Given) {
    throw new Error(
      'Set either CA_KEY_ENCRYPTION_KEY_FILE or the CA_PKCS11_* settings for the CA keys, not both.',
    );
  }
  if (p11Given) {
    const missing = Object.entries({
      CA_PKCS11_MODULE: p11.module,
      CA_PKCS11_TOKEN_LABEL: p11.tokenLabel,
      CA_PKCS11_PIN_FILE: p11.pinFile,
    })
      .filter(([, value]) => value === null)
      .map(([name]) => name);
    if (missing.length > 0 || p11.module === null || p11.tokenLabel === null || p11.pinFile === null) {
      throw new Error(`CA keys on a PKCS#11 token also need ${missing.join(' and ')}.`);
    }
    return {
      kind: 'pkcs11',
      module: p11.module,
      tokenLabel: p11.tokenLabel,
      pinFile: path.resolve(p11.pinFile),
    };
  }
  if (keyFile !== null) return { kind: 'encrypted', keyFile: path.resolve(keyFile), generated: false };
  if (databaseUrl !== null) {
    throw new Error(
      'DATABASE_URL is set but the CA keys have no custody: set CA_KEY_ENCRYPTION_KEY_FILE to a file of 32 random bytes (e.g. `openssl rand -out ca.key 32`), the same file on every server process, or CA_PKCS11_MODULE, CA_PKCS11_TOKEN_LABEL and CA_PKCS11_PIN_FILE to keep them on a PKCS#11 token (README, "Configuration").',
    );
  }
  return {
    kind: 'encrypted',
    keyFile: path.join(dataDir, DEFAULT_CA_KEY_ENCRYPTION_KEY_FILE),
    generated: true,
  };
}

/** CLIENT_TOOLS_DIR, or `client-tools` in the data directory; `npm run agent:package` writes there too. */
export function clientToolsDir(
  env: NodeJS.ProcessEnv,
  dataDir = path.resolve(env.DATA_DIR || 'data'),
): string {
  return path.resolve(env.CLIENT_TOOLS_DIR || path.join(dataDir, 'client-tools'));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = positiveInteger('PORT', env.PORT, 8080);
  const host = env.HOST || 'localhost';
  const publicOrigin = publicUrl(
    env.PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
  );
  const dataDir = path.resolve(env.DATA_DIR || 'data');
  const databaseUrl = env.DATABASE_URL || null;
  return {
    port,
    host,
    dataDir,
    databaseUrl,
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
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    smtpUrl: smtpUrl(env.SMTP_URL),
    publicUrl: publicOrigin,
    publicUrlConfigured: Boolean(env.PUBLIC_URL),
    mailFrom: mailFrom(env.MAIL_FROM, publicOrigin),
    caKeyAlgorithm: caKeyAlgorithm(env.CA_KEY_ALGORITHM),
    caName: caName(env.CA_NAME),
    caCustody: caCustody(env, dataDir, databaseUrl),
    crlValidityHours: positiveInteger('CRL_VALIDITY_HOURS', env.CRL_VALIDITY_HOURS, 24),
    clientToolsDir: clientToolsDir(env, dataDir),
  };
}
