import type { APIRequestContext } from '@playwright/test';
import { apiPaths } from '../contract/paths.ts';
import type { Enrollment } from '../contract/schemas/enrollments.ts';
import type { ClientSession } from '../contract/trust-agent/client-session.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { clickHardwareToken, clickToken, fillPin } from './pages/enrollment.ts';
import {
  administratorToken,
  enrollmentIssuedFor,
  enrollmentProfile,
  openStorySession,
  type StoryAgent,
  startStoryAgent,
  tokenObjects,
} from './support/trust-agent.ts';

const KEY_TOKEN = 'key-token';
const OTHER_TOKEN = 'other-token';
const PIN = '246810';
const RUN = Date.now().toString(36);

let story: StoryAgent | null = null;
let session: ClientSession | null = null;
let accountId = '';
let profileId = '';

test.beforeAll(async ({ request }) => {
  ({ accountId, profileId } = await enrollmentProfile(request, `Pickup ${RUN}`));
  // Two SoftHSM2 tokens of this story's own: the one the key is made on, and another.
  story = await startStoryAgent({ tokens: [KEY_TOKEN, OTHER_TOKEN], pin: PIN, softwareKeystore: false });

  // The first computer's page, as far as the broken connection let it: a session of the console's origin.
  session = await openStorySession(story, story.agent.url);
});

test.afterAll(async () => {
  await story?.stop();
});

/**
 * An enrollment whose certificate was issued for a key made on the key token, and never imported:
 * the connection broke between the issue and the import.
 */
function issuedWithoutImport(request: APIRequestContext, device: string) {
  return enrollmentIssuedFor(request, { accountId, profileId }, device, 'DTA', async (commonName) => {
    const agentSession = session as ClientSession;
    const keystores = await agentSession.send('keystore', {});
    const keystoreId = keystores.ok
      ? keystores.result.keystores.find((keystore) => keystore.name === KEY_TOKEN)?.id
      : undefined;
    expect(keystoreId).toBeDefined();
    const generated = await agentSession.send('generate', {
      keystoreId: keystoreId as string,
      pin: PIN,
      algorithm: 'RSA',
      keySize: 2048,
      subject: { commonName },
    });
    if (!generated.ok) throw new Error(`generate: ${generated.error.message}`);
    return generated.result.csr;
  });
}

test('a certificate issued but never imported is installed later from its link, into the token holding its key', async ({
  page,
  request,
}) => {
  const device = `Pickup ${RUN}`;
  const { id, code, certificate } = await issuedWithoutImport(request, device);
  expect(tokenObjects(KEY_TOKEN, PIN)).not.toContain('Certificate Object');

  await test.step('the pickup page takes the mailed id and code to the install', async () => {
    await page.goto('/account/certificate-pickup');
    await expect(page.getByRole('heading', { name: 'Pick up your certificate', level: 1 })).toBeVisible();
    await page.getByLabel('Enrollment ID').fill(id);
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(new RegExp(`/account/enrollment-link/${id}/${code}$`));
    await expect(page.getByRole('heading', { name: 'Install your certificate', level: 1 })).toBeVisible();
    await expect(page.getByText(certificate.serial_number)).toBeVisible();
  });

  await test.step('another token holds no key for it: the error names the serial number and the token', async () => {
    await clickHardwareToken(page);
    await clickToken(page, OTHER_TOKEN);
    await fillPin(page, PIN);
    await expect(page.getByRole('alert')).toContainText(
      `The certificate could not be installed: The keystore ${OTHER_TOKEN} holds no key for the certificate with the serial number ${certificate.serial_number}.`,
    );
    await assertAccessible(page);
  });

  await test.step('the token with the key: installed, redeemed, and the way to sign in', async () => {
    await clickToken(page, KEY_TOKEN);
    // The PIN form follows the choice after the token list's delay; the other token's is still there.
    await expect(page.getByLabel(`PIN of ${KEY_TOKEN}`)).toBeVisible();
    await fillPin(page, PIN);
    await expect(
      page.getByRole('status').filter({ hasText: `is installed on the token ${KEY_TOKEN}` }),
    ).toBeVisible();
    await expect(page.getByText('Certificate installed', { exact: true })).toBeVisible();
    await assertAccessible(page);
    const objects = tokenObjects(KEY_TOKEN, PIN);
    expect(objects).toContain('Certificate Object');
    expect(objects).toContain(`CN=${device}`);
    const enrollment = await request.get(apiPaths.enrollments.byId(id), {
      headers: { Authorization: `Bearer ${await administratorToken(request)}` },
    });
    expect(((await enrollment.json()) as Enrollment).status).toBe('redeemed');

    await page.getByRole('button', { name: 'Sign in' }).click();
    // The sign-in page may add its own state to the address it was sent to.
    await expect(page).toHaveURL(/\/account\/login(\?|$)/);
  });
});
