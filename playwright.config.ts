import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { apiPaths } from './contract/paths.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_E2E_PORT,
  E2E_DATA_DIR_VARIABLE,
  E2E_PORT_VARIABLE,
  mailboxPort,
} from './e2e/support/environment.ts';
import { CHROMIUM_INSTALL_HINT, findChromium } from './scripts/chromium.ts';

const port = Number(process.env[E2E_PORT_VARIABLE] ?? DEFAULT_E2E_PORT);
process.env[E2E_PORT_VARIABLE] = String(port);

// A fresh data directory per run, so the first-run scenario meets a server that has never been set up.
// Only the runner creates it (workers inherit the variable) and removes it when it exits, after
// Playwright has stopped the server.
if (!process.env[E2E_DATA_DIR_VARIABLE]) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-console-e2e-'));
  process.env[E2E_DATA_DIR_VARIABLE] = dataDir;
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}

const chromium = findChromium();
if (!chromium) throw new Error(CHROMIUM_INSTALL_HINT);

const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: 'e2e',
  // A guard against a story that hangs, not a measure of speed: the stories run beside the unit
  // tests on a two-core machine, where a 35 s story was seen to take over a minute.
  timeout: 120_000,
  // The scenarios share one server and its first-run state: one worker, files in a fixed order.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    browserName: 'chromium',
    // A laptop screen: every screen must fit it without scrolling sideways (e2e/fixtures.ts checks).
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // The console talks to the trust agent on 127.0.0.1; Chromium would otherwise prompt for it.
        '--disable-features=LocalNetworkAccessChecks',
      ],
    },
  },
  projects: [
    // First-run needs the server before anyone has set it up; every other story runs after it.
    { name: 'first-run', testMatch: 'first-run.spec.ts' },
    { name: 'stories', testIgnore: 'first-run.spec.ts', dependencies: ['first-run'] },
  ],
  webServer: {
    // scripts/test.ts builds the console first; the server only serves dist/console.
    command: 'npx tsx server/main.ts',
    url: `${baseURL}${apiPaths.setup.status}`,
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: process.env[E2E_DATA_DIR_VARIABLE],
      ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TOKEN_TTL_SECONDS),
      // Always PGlite in the fresh data directory, even where CI exports a PostgreSQL URL: first-run
      // needs a database nobody has set up.
      DATABASE_URL: '',
      // Mail goes to the scenarios' mailbox (e2e/fixtures.ts), and its links to the address the
      // browser opens.
      SMTP_URL: `smtp://127.0.0.1:${mailboxPort(port)}`,
      PUBLIC_URL: baseURL,
      MAIL_FROM: 'no-reply@example.com',
    },
  },
});
