import type { Locator, Page } from '@playwright/test';
import { CONSOLE_BASE_PATH } from '../../contract/paths.ts';
import { TRUST_AGENT_LAUNCH_URL } from '../../contract/trust-agent/constants.ts';
import { expect } from '../fixtures.ts';

/** The agent worker's IndexedDB database (src/trust-agent/identity-store.ts): identity and pinned agent keys. */
const TRUST_AGENT_DATABASE = 'trust-agent';

export async function goToClientTools(page: Page): Promise<void> {
  await page.goto(`${CONSOLE_BASE_PATH}/ca/client-tools`);
}

function trustAgentPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'Trust agent on this computer' });
}

export async function assertTrustAgentReady(page: Page, version: string): Promise<void> {
  const panel = trustAgentPanel(page);
  await expect(panel.getByText(version, { exact: true })).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Keystores' })).toBeVisible();
  // A fresh agent offers its software keystore, not set up until a PIN is chosen for it.
  const software = panel.getByRole('row', { name: /^Software keystore PFX/ });
  await expect(software).toContainText('Not initialized');
  await expect(panel.getByRole('heading', { name: 'Tokens' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Refresh' })).toBeVisible();
}

/** The page reports a missing agent once its probe has gone unanswered through three retries, 2 s apart. */
const UNANSWERED_PROBES_MS = 15_000;

export async function assertTrustAgentNotRunning(page: Page): Promise<void> {
  const panel = trustAgentPanel(page);
  await expect(
    panel.getByText('The trust agent is installed on this computer but it is not running.'),
  ).toBeVisible({ timeout: UNANSWERED_PROBES_MS });
  await expect(panel.getByRole('link', { name: 'Start the trust agent' })).toHaveAttribute(
    'href',
    TRUST_AGENT_LAUNCH_URL,
  );
  await expect(panel.getByText('Error code: 2')).toBeVisible();
}

export async function assertTrustAgentNotInstalled(page: Page): Promise<void> {
  const panel = trustAgentPanel(page);
  await expect(panel.getByText('The trust agent is required.', { exact: false })).toBeVisible({
    timeout: UNANSWERED_PROBES_MS,
  });
  // The panel sits above the catalogue it links to.
  await expect(panel.getByRole('link', { name: 'Download the trust agent' })).toHaveAttribute(
    'href',
    '#client-tools-catalogue',
  );
  await expect(panel.getByText('Error code: 1')).toBeVisible();
}

export async function assertTrustAgentOutdated(page: Page, version: string, minimum: string): Promise<void> {
  const panel = trustAgentPanel(page);
  await expect(
    panel.getByText(`is version ${version}; this page needs version ${minimum} or later`),
  ).toBeVisible();
}

/** The code the page shows while the pairing waits for the desktop user. */
export async function readPairingCode(page: Page): Promise<string> {
  const code = page.getByText(/^\d{3} \d{3}$/);
  await expect(code).toBeVisible();
  return (await code.textContent()) ?? '';
}

/** Clears what this browser remembers of the agent, as clearing the site's data does. */
export async function clearTrustAgentPairing(page: Page): Promise<void> {
  await page.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase(name);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      }),
    TRUST_AGENT_DATABASE,
  );
}
