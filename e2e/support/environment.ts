/**
 * What playwright.config.ts decides once per run and the scenarios need to know. The config runs in
 * the runner and again in every worker; the runner's values reach the workers through the
 * environment they inherit.
 */
export const E2E_PORT_VARIABLE = 'E2E_PORT';
export const E2E_DATA_DIR_VARIABLE = 'E2E_DATA_DIR';
export const DEFAULT_E2E_PORT = 8181;

/** The data directory of the server this run started. */
export function serverDataDir(): string {
  const dir = process.env[E2E_DATA_DIR_VARIABLE];
  if (!dir)
    throw new Error(`${E2E_DATA_DIR_VARIABLE} is not set: run the scenarios through playwright.config.ts.`);
  return dir;
}

/** Short enough that the session-expiry scenario waits seconds, not the default ten minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 15;

/**
 * The browser scenarios' mailbox (e2e/fixtures.ts) listens on the server's port plus this offset, so
 * runs on different ports never share one; playwright.config.ts gives the server the same SMTP_URL.
 */
const SMTP_PORT_OFFSET = 20_000;

export function mailboxPort(serverPort: number): number {
  return serverPort + SMTP_PORT_OFFSET;
}

/** The port of the server this run started, as playwright.config.ts chose it. */
export function serverPort(): number {
  return Number(process.env[E2E_PORT_VARIABLE] ?? DEFAULT_E2E_PORT);
}
