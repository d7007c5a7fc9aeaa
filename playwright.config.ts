import { defineConfig } from '@playwright/test';
import { CHROMIUM_INSTALL_HINT, findChromium } from './scripts/chromium.ts';

const chromium = findChromium();
if (!chromium) throw new Error(CHROMIUM_INSTALL_HINT);

/**
 * The stories that run the trust agent take the machine's agent port (and the desktop client's), which
 * the console knows as a constant: they run one at a time, beside the others.
 */
const AGENT_STORIES = [
  'certificate-pickup.spec.ts',
  'desktop-client.spec.ts',
  'enrollment-safeguards.spec.ts',
  'enrollment.spec.ts',
  'installed-agent.spec.ts',
  'trust-agent.spec.ts',
];

export default defineConfig({
  testDir: 'e2e',
  // A guard against a story that hangs, not a measure of speed: the stories run beside the unit
  // tests on a two-core machine, where a 35 s story was seen to take over a minute.
  timeout: 120_000,
  // How long an expectation waits for the page. Beside the unit suites on two cores a step that
  // takes one second alone (the agent's handshake, a keystore's PBKDF2) was seen to take over five,
  // Playwright's default; waiting longer costs a passing story nothing, since it returns at once.
  expect: { timeout: 15_000 },
  // Each worker runs its own platform (e2e/support/platform.ts); two keep a two-core machine busy
  // while the unit suites run beside them (decision 006). Files run whole, in order, on one worker.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
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
    { name: 'agent', testMatch: AGENT_STORIES, workers: 1 },
    { name: 'stories', testIgnore: AGENT_STORIES },
  ],
});
