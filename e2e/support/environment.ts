/**
 * What the stories' helpers need to know of the platform their worker started (e2e/support/platform.ts),
 * which puts it in the worker's environment before any story runs.
 */

/** The first platform's port; a worker's platform listens on it plus the worker's parallel index. */
export const E2E_PORT_VARIABLE = 'E2E_PORT';
export const DEFAULT_E2E_PORT = 8181;
export const PLATFORM_PORT_VARIABLE = 'E2E_PLATFORM_PORT';
export const PLATFORM_DATA_DIR_VARIABLE = 'E2E_PLATFORM_DATA_DIR';

function platformSetting(variable: string): string {
  const value = process.env[variable];
  if (!value)
    throw new Error(`${variable} is not set: use the test of e2e/fixtures.ts, which starts the platform.`);
  return value;
}

/** The data directory of this worker's platform. */
export function serverDataDir(): string {
  return platformSetting(PLATFORM_DATA_DIR_VARIABLE);
}

/** The port of this worker's platform. */
export function serverPort(): number {
  return Number(platformSetting(PLATFORM_PORT_VARIABLE));
}

/** Short enough that the session-expiry scenario waits seconds, not the default ten minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 15;

/**
 * A worker's mailbox (e2e/fixtures.ts) listens on its platform's port plus this offset, so workers
 * and runs on different ports never share one.
 */
const SMTP_PORT_OFFSET = 20_000;

export function mailboxPort(serverPort: number): number {
  return serverPort + SMTP_PORT_OFFSET;
}
