import type { APIRequestContext } from '@playwright/test';
import { apiPaths } from '../contract/paths.ts';
import type { Enrollment } from '../contract/schemas/enrollments.ts';
import type { ClientSession } from '../contract/trust-agent/client-session.ts';
import type { DesktopClientCommands } from '../contract/trust-agent/desktop-client.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { installWithDesktopClient } from './pages/enrollment.ts';
import {
  administratorToken,
  enrollmentIssuedFor,
  enrollmentProfile,
  openStorySession,
  type StoryAgent,
  startStoryAgent,
  tokenObjects,
} from './support/trust-agent.ts';

const DEVICE_TOKEN = 'device-token';
const OTHER_TOKEN = 'spare-token';
const PIN = '246810';
const RUN = Date.now().toString(36);

let story: StoryAgent | null = null;
let device: ClientSession<DesktopClientCommands> | null = null;
let accountId = '';
let profileId = '';

test.beforeAll(async ({ request }) => {
  ({ accountId, profileId } = await enrollmentProfile(request, `Desktop client ${RUN}`));
  // The agent program with its desktop client, and two SoftHSM2 tokens of this story's own.
  story = await startStoryAgent({
    tokens: [DEVICE_TOKEN, OTHER_TOKEN],
    pin: PIN,
    softwareKeystore: false,
    desktopClient: true,
  });

  // The device's own client: a session with the desktop client, which makes the key and its CSR.
  device = await openStorySession<DesktopClientCommands>(story, story.agent.desktopClientUrl as string);
  const initialized = await device.send('initialize', { environment: 'production' });
  expect(initialized.ok && initialized.result.agent).toMatchObject({
    product: 'desktop-client',
    version: '3.3.1',
  });
});

test.afterAll(async () => {
  await story?.stop();
});

/**
 * A device's enrollment whose certificate its desktop client requested (enrollment method DDC) for
 * a key it made on the device token: the install link then installs the chain with the desktop client.
 */
function requestedByDesktopClient(request: APIRequestContext, name: string) {
  return enrollmentIssuedFor(request, { accountId, profileId }, name, 'DDC', async (commonName) => {
    const client = device as ClientSession<DesktopClientCommands>;
    const keystores = await client.send('keystore', {});
    const keystoreId = keystores.ok
      ? keystores.result.keystores.find((keystore) => keystore.name === DEVICE_TOKEN)?.id
      : undefined;
    expect(keystoreId).toBeDefined();
    const made = await client.send('csr', {
      keystoreId: keystoreId as string,
      pin: PIN,
      algorithm: 'RSA',
      keySize: 2048,
      subject: { commonName },
    });
    if (!made.ok) throw new Error(`csr: ${made.error.message}`);
    return made.result.csr;
  });
}

test('a device certificate its desktop client requested is installed from the link by the desktop client', async ({
  page,
  request,
}) => {
  const name = `Kiosk ${RUN}`;
  const { id, code, certificate } = await requestedByDesktopClient(request, name);
  expect(certificate.enrollment_method).toBe('DDC');
  expect(tokenObjects(DEVICE_TOKEN, PIN)).not.toContain('Certificate Object');

  await test.step('the install link uses the desktop client and lists its tokens', async () => {
    await page.goto(`/account/enrollment-link/${id}/${code}`);
    await expect(page.getByRole('heading', { name: 'Install your certificate', level: 1 })).toBeVisible();
    await expect(page.getByText(/was issued for this device/)).toContainText(certificate.serial_number);
    await expect(page.getByRole('radio', { name: DEVICE_TOKEN, exact: true })).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('a token without the key: the banner and an error toast name the serial number and the token', async () => {
    await installWithDesktopClient(page, OTHER_TOKEN, PIN);
    const text = `The desktop client could not install the certificate: The keystore ${OTHER_TOKEN} holds no key for the certificate with the serial number ${certificate.serial_number}.`;
    await expect(page.getByRole('alert').filter({ hasText: text })).toBeVisible();
    await expect(page.locator('.toast--error').filter({ hasText: text })).toBeVisible();
    expect(tokenObjects(OTHER_TOKEN, PIN)).not.toContain('Certificate Object');
    await assertAccessible(page);
  });

  await test.step('the device token: the chain installed, the enrollment redeemed, the way to sign in', async () => {
    await installWithDesktopClient(page, DEVICE_TOKEN, PIN);
    await expect(page.getByText(`is installed on the token ${DEVICE_TOKEN}`)).toBeVisible();
    await expect(page.getByText('Certificate installed', { exact: true })).toBeVisible();
    await assertAccessible(page);
    const objects = tokenObjects(DEVICE_TOKEN, PIN);
    expect(objects).toContain('Certificate Object');
    expect(objects).toContain(`CN=${name}`);
    const enrollment = await request.get(apiPaths.enrollments.byId(id), {
      headers: { Authorization: `Bearer ${await administratorToken(request)}` },
    });
    expect(((await enrollment.json()) as Enrollment).status).toBe('redeemed');

    // The desktop client recorded the profile it installed under, with its security policy.
    const profiles = await (device as ClientSession<DesktopClientCommands>).send('profile', {});
    expect(profiles.ok && profiles.result.profiles).toEqual([
      expect.objectContaining({ name: `Desktop client ${RUN}`, securityPolicy: 'hardware' }),
    ]);

    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/account\/login(\?|$)/);
  });
});
