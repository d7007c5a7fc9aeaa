import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TRUST_ASSISTANT_DOWNLOAD_VERSION as AGENT_VERSION } from '../contract/trust-agent/constants.ts';
import { publishAgentPackages } from '../server/client-tools/publish.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import {
  assertOnClientTools,
  clientToolRow,
  goToClientTools,
  operatingSystemHeadings,
  pressCopySha256,
  pressDownload,
  shownSha256,
} from './pages/client-tools.ts';
import { assertOnAccounts, chooseTheme } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { serverDataDir } from './support/environment.ts';

/** The trust assistant for this computer: an executable carrying Node.js, with its installer. */
const AGENT_PACKAGE = `trust-assistant-${AGENT_VERSION}-linux-x64.tar.gz`;

/** A package the operator publishes beside the trust assistant: its bytes and the manifest naming it. */
const SENSOR = { id: 'sensor-linux-x64', version: '2.1.0', name: 'sensor-2.1.0-linux-x64.tar.gz' };
const sensorBytes = randomBytes(48 * 1024);

/** The paths a downloaded .tar.gz holds, as the system's own tar lists them. */
function archivedPaths(bytes: Buffer): string[] {
  return execFileSync('tar', ['-tzf', '-'], { input: bytes, encoding: 'utf8' }).split('\n');
}

test.beforeAll(async () => {
  // Building the package when npm run agent:package has not: about 15 s.
  test.setTimeout(180_000);
  // The server's catalogue directory (CLIENT_TOOLS_DIR defaults to DATA_DIR/client-tools), read on every list.
  const catalogue = path.join(serverDataDir(), 'client-tools');
  // What the server published at its start, or the package built now from the same sources.
  await publishAgentPackages(catalogue, { targets: ['linux-x64'] });
  await mkdir(path.join(catalogue, SENSOR.id, SENSOR.version), { recursive: true });
  await writeFile(path.join(catalogue, SENSOR.id, SENSOR.version, SENSOR.name), sensorBytes);
  await writeFile(
    path.join(catalogue, 'catalogue.json'),
    JSON.stringify({
      tools: [
        {
          id: SENSOR.id,
          name: 'Sensor',
          os: 'linux',
          arch: 'x64',
          versions: [SENSOR.version],
          files: [{ name: SENSOR.name, folder: SENSOR.version, label: 'Linux package (.tar.gz)' }],
        },
      ],
    }),
  );
});

test('a user downloads a client tool and checks it against the SHA-256 the console shows', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await goToSignIn(page);
  await assertOnSignIn(page);
  await fillSignInSteps(page, ADMINISTRATOR);
  await assertOnAccounts(page);

  await test.step('the catalogue opens from the navigation with this computer’s system first', async () => {
    await goToClientTools(page);
    await expect(operatingSystemHeadings(page).first()).toHaveText('Linux (this computer)');
    const row = clientToolRow(page, SENSOR.name);
    await expect(row).toContainText('Sensor');
    await expect(row).toContainText('2.1.0');
    await expect(row).toContainText('48 kB');
    await assertAccessible(page);
  });

  await test.step('the downloaded file has the SHA-256 shown beside it', async () => {
    const row = clientToolRow(page, SENSOR.name);
    const shown = await shownSha256(row);
    const { name, bytes } = await pressDownload(page, row);
    expect(name).toBe(SENSOR.name);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(shown);
    expect(bytes.equals(sensorBytes)).toBe(true);
  });

  await test.step('so does the trust assistant the server publishes for this system', async () => {
    const row = clientToolRow(page, AGENT_PACKAGE);
    await expect(row).toContainText('Trust assistant');
    await expect(row).toContainText('x64');
    const shown = await shownSha256(row);
    const { name, bytes } = await pressDownload(page, row);
    expect(name).toBe(AGENT_PACKAGE);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(shown);
    expect(archivedPaths(bytes)).toEqual(
      expect.arrayContaining([
        `trust-assistant-${AGENT_VERSION}/trust-assistant`,
        `trust-assistant-${AGENT_VERSION}/install.sh`,
      ]),
    );
  });

  await test.step('the SHA-256 copies by keyboard', async () => {
    const row = clientToolRow(page, SENSOR.name);
    await pressCopySha256(page, row);
    await expect(
      page.getByRole('status').filter({ hasText: `SHA-256 of ${SENSOR.name} copied.` }),
    ).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await shownSha256(row));
  });

  await test.step('the page reads in both themes', async () => {
    for (const theme of ['Dark', 'Light'] as const) {
      await chooseTheme(page, theme);
      await assertAccessible(page);
    }
  });
});

test('a technician without an account downloads the trust agent from the public client tools page', async ({
  page,
}) => {
  await page.goto('/account/client-tools');
  await assertOnClientTools(page);
  const row = clientToolRow(page, AGENT_PACKAGE);
  const shown = await shownSha256(row);
  const { bytes } = await pressDownload(page, row);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(shown);
  // No session was needed, and none was started: the page stays public.
  await expect(page).toHaveURL(/\/account\/client-tools$/);
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
  await assertAccessible(page);
});
