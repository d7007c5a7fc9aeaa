import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiPaths, CONSOLE_BASE_PATH } from '../contract/paths.ts';
import type { EnrollmentCertificate, EnrollmentStatusAnswer } from '../contract/schemas/enrollments.ts';
import {
  TRUST_ASSISTANT_MIN_VERSION,
  TRUST_ASSISTANT_MIN_VERSION_SOFTWARE_KEYSTORE,
} from '../contract/trust-agent/constants.ts';
import { GATE_ERROR_CODES } from '../contract/trust-agent/errors.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import {
  assertOnStep,
  clickContinue,
  clickHardwareToken,
  clickIssue,
  clickToken,
  fillPin,
  goToEnrollmentLink,
} from './pages/enrollment.ts';
import {
  administratorToken,
  createEnrollment,
  enrollmentProfile,
  SOFTHSM_MODULE,
  type StoryAgent,
  startStoryAgent,
} from './support/trust-agent.ts';

/**
 * What the enrollment page refuses: a computer without a usable trust agent, and a certificate the
 * keystore holds no key for.
 */

const TOKEN_LABEL = 'guard-token';
const TOKEN_PIN = '135790';
const RUN = Date.now().toString(36);

let story: StoryAgent | null = null;
let under = { accountId: '', profileId: '' };

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The one agent of the story on the agent port; the one before is stopped first. */
async function replaceAgent(version?: string): Promise<void> {
  await story?.stop();
  // Cleared first: a start that fails leaves no stopped agent behind to stop again.
  story = null;
  story = await startStoryAgent({
    tokens: [TOKEN_LABEL],
    pin: TOKEN_PIN,
    softwareKeystore: true,
    ...(version ? { version } : {}),
  });
}

/** The enrollment's id and code, from the link's /enrollment/{id}/{code}. */
function linkParts(link: string): { id: string; code: string } {
  const match = /\/enrollment\/([^/]+)\/([^/?#]+)$/.exec(new URL(link).pathname);
  if (!match) throw new Error(`Not an enrollment link: ${link}`);
  return { id: decodeURIComponent(match[1] as string), code: decodeURIComponent(match[2] as string) };
}

function clickSoftwareKeystore(page: Page): Promise<void> {
  return page.getByRole('radio', { name: /software keystore/ }).check();
}

async function assertOutdated(page: Page, version: string, minimum: string): Promise<void> {
  const banner = page.getByRole('status').filter({ hasText: 'The trust agent on this computer is version' });
  await expect(banner).toHaveText(
    new RegExp(
      `The trust agent on this computer is version ${version.replaceAll('.', '\\.')}; this page needs version ${minimum.replaceAll('.', '\\.')} or later\\.`,
    ),
  );
  await expect(banner.getByRole('link', { name: 'Download the trust agent' })).toBeVisible();
  await expect(page.getByRole('radio', { name: new RegExp(`^${TOKEN_LABEL} \\(`) })).toHaveCount(0);
}

async function assertTokenListed(page: Page): Promise<void> {
  await expect(page.getByRole('radio', { name: new RegExp(`^${TOKEN_LABEL} \\(`) })).toBeVisible();
}

test.beforeAll(async ({ request }) => {
  under = await enrollmentProfile(request, `Safeguards ${RUN}`);
});

test.afterEach(async () => {
  await story?.stop();
  story = null;
});

test('the enrollment page waits for a trust agent it can use: none, an outdated one, then a current one', async ({
  page,
  browser,
  request,
  mailbox,
}) => {
  test.setTimeout(90_000);
  const link = await createEnrollment(request, mailbox, under, `Gate ${RUN}`);

  await test.step('no agent on this computer: the agent is required, with the public download page', async () => {
    await goToEnrollmentLink(page, link);
    const banner = page.getByRole('status').filter({
      hasText: 'The trust agent is required. Install it on this computer, then come back to this page.',
    });
    // Reported once the probe has gone unanswered through its three retries, 2 s apart.
    await expect(banner).toBeVisible();
    await expect(banner).toContainText(`Error code: ${GATE_ERROR_CODES.notInstalled}`);
    const download = banner.getByRole('link', { name: 'Download the trust agent' });
    // The public catalogue, not the signed-in client tools page: the enrollee has no console account.
    await expect(download).toHaveAttribute('href', `${CONSOLE_BASE_PATH}/client-tools`);
    await assertAccessible(page);
  });

  await test.step('agent 1.0.1: too old for the software keystore, enough for a hardware token', async () => {
    await replaceAgent('1.0.1');
    // The page looks for the agent every 2 s while it waits for one to be installed.
    await assertOutdated(page, '1.0.1', TRUST_ASSISTANT_MIN_VERSION_SOFTWARE_KEYSTORE);
    await clickHardwareToken(page);
    await assertTokenListed(page);
    await clickSoftwareKeystore(page);
    await assertOutdated(page, '1.0.1', TRUST_ASSISTANT_MIN_VERSION_SOFTWARE_KEYSTORE);
  });

  // A second computer: this browser paired with the 1.0.1 agent, and a new agent is another program.
  const context = await browser.newContext();
  try {
    const second = await context.newPage();
    await test.step('agent 0.9.0: too old for either keystore, and no pairing with it', async () => {
      await replaceAgent('0.9.0');
      await goToEnrollmentLink(second, link);
      await assertOutdated(second, '0.9.0', TRUST_ASSISTANT_MIN_VERSION_SOFTWARE_KEYSTORE);
      await clickHardwareToken(second);
      await assertOutdated(second, '0.9.0', TRUST_ASSISTANT_MIN_VERSION);
      await expect(second.getByText('Pairing code:')).toHaveCount(0);
    });

    await test.step('the agent updated to the current version: the page continues by itself', async () => {
      await replaceAgent();
      // An outdated agent is looked at again every 5 s; the outdated banner offers no retry button.
      await assertTokenListed(second);
      await expect(second.getByText(/The trust agent on this computer is version/)).toHaveCount(0);
      await clickSoftwareKeystore(second);
      await expect(second.getByRole('button', { name: 'Create the keystore' })).toBeVisible();
    });
  } finally {
    await context.close();
  }
});

test('the hardware-token path without a token, then with a token whose PIN was never set beside one not initialized', async ({
  browser,
  page,
  request,
  mailbox,
}) => {
  // Two agents, each starting SoftHSM2, and a second browser.
  test.setTimeout(90_000);
  const link = await createEnrollment(request, mailbox, under, `Token-less laptop ${RUN}`);

  await test.step('no token reader on this computer: the page says no token is detected', async () => {
    story = await startStoryAgent({
      tokens: [],
      pin: TOKEN_PIN,
      softwareKeystore: false,
      hardwareTokens: false,
    });
    await goToEnrollmentLink(page, link);
    await clickHardwareToken(page);
    await expect(
      page.getByText(
        'No hardware token is detected. Connect your token to this computer; this page finds it by itself.',
      ),
    ).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('another computer, with a token whose user PIN was never set: that PIN is refused as not initialized', async () => {
    await story?.stop();
    story = null;
    story = await startStoryAgent({
      tokens: [],
      pin: TOKEN_PIN,
      softwareKeystore: false,
      tokenWithoutUserPin: 'blank-pin',
    });
    // Another agent is another program: this browser stays paired with the first one.
    const context = await browser.newContext();
    try {
      const second = await context.newPage();
      await goToEnrollmentLink(second, link);
      await clickHardwareToken(second);
      await expect(
        second.getByText('Keep the token connected until the certificate is in it.'),
      ).toBeVisible();
      await clickToken(second, 'blank-pin');
      // The token says so itself: the page asks for no PIN it could not check.
      await expect(second.getByRole('alert')).toHaveText(
        "The PIN of this keystore is not initialized. Set a PIN with the token's own tool first.",
      );
      await expect(second.getByLabel(/^PIN of /)).toHaveCount(0);
      // SoftHSM2's free slot holds a token not initialized, as a fresh smart card is: listed by its
      // maker and model, not offered, and saying what it needs.
      const uninitialized = second.getByRole('radio', {
        name: 'Uninitialized token (SoftHSM project SoftHSM v2)',
      });
      await expect(uninitialized).toBeDisabled();
      await expect(uninitialized).toHaveAccessibleDescription(
        "This token is not initialized. Initialize it with its maker's tool, then choose it.",
      );
      await expect(second.getByRole('radio', { name: /Token without a label/ })).toHaveCount(0);
      await assertAccessible(second);
    } finally {
      await context.close();
    }
  });
});

test('a certificate issued for a key the token does not hold is not installed, and the page says so', async ({
  page,
  request,
  mailbox,
}) => {
  test.setTimeout(90_000);
  await replaceAgent();
  const device = `Swapped ${RUN}`;
  const link = await createEnrollment(request, mailbox, under, device);
  const { id, code } = linkParts(link);
  const dir = story?.dir ?? '';

  // A key of someone else's: the request that reaches the CA carries its CSR instead of the token's.
  const foreignKey = path.join(dir, 'foreign.key');
  const foreignCsr = run('openssl', [
    'req',
    '-new',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    foreignKey,
    '-subj',
    `/CN=${device}`,
  ]);
  let requests = 0;
  await page.route(`**${apiPaths.enrollments.certificate(id, code)}`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    requests += 1;
    const body = route.request().postDataJSON() as Record<string, unknown>;
    expect(body.csr).toContain('-----BEGIN CERTIFICATE REQUEST-----');
    await route.continue({ postData: JSON.stringify({ ...body, csr: foreignCsr }) });
  });

  await goToEnrollmentLink(page, link);
  await clickHardwareToken(page);
  await clickToken(page, TOKEN_LABEL);
  await fillPin(page, TOKEN_PIN);
  await assertOnStep(page, 2, 'Your details', 'details');
  await clickContinue(page);
  await assertOnStep(page, 3, 'Issue', 'issue');
  const answer = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().endsWith('/certificate'),
  );
  await clickIssue(page);
  const response = await answer;
  expect(response.status()).toBe(201);
  const issued = (await response.json()) as EnrollmentCertificate;

  await test.step('the CA issued for the foreign key', async () => {
    const certificate = path.join(dir, 'issued.pem');
    await writeFile(certificate, issued.x509_cert);
    expect(run('openssl', ['x509', '-noout', '-modulus', '-in', certificate])).toBe(
      run('openssl', ['rsa', '-noout', '-modulus', '-in', foreignKey]),
    );
  });

  await test.step('the agent refuses the import: the page names the missing key and claims no success', async () => {
    await expect(page.getByRole('alert')).toHaveText(
      'This certificate was issued for a key this keystore does not hold, so it cannot be installed here.',
    );
    await assertOnStep(page, 3, 'Issue', 'issue');
    await expect(page.getByText('The certificate is issued and stored next to its key')).toHaveCount(0);
    // A retry imports again and is refused again; the CA is not asked a second time.
    await page.getByRole('button', { name: 'Finish the enrollment' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'This certificate was issued for a key this keystore does not hold, so it cannot be installed here.',
    );
    await expect(page.getByRole('button', { name: 'Finish the enrollment' })).toBeEnabled();
    expect(requests).toBe(1);
    await assertAccessible(page);
  });

  await test.step('the token holds the key made for the enrollment and no certificate', async () => {
    const objects = run('pkcs11-tool', [
      '--module',
      SOFTHSM_MODULE,
      '--token-label',
      TOKEN_LABEL,
      '--list-objects',
      '--login',
      '--pin',
      TOKEN_PIN,
    ]);
    expect(objects).toContain('Private Key Object');
    expect(objects).not.toContain('Certificate Object');
  });

  await test.step('the enrollment stays issued, not redeemed: its certificate can still be fetched', async () => {
    const status = await request.get(apiPaths.enrollments.status(id), {
      headers: { Authorization: `Bearer ${await administratorToken(request)}` },
    });
    expect(status.status(), await status.text()).toBe(200);
    const answer = (await status.json()) as EnrollmentStatusAnswer;
    expect(answer.status).toBe('issued');
    expect(answer.certificate_id).toBe(issued.certificate_id);
    const again = await request.get(apiPaths.enrollments.certificate(id, code));
    expect(again.status(), await again.text()).toBe(200);
    expect(((await again.json()) as EnrollmentCertificate).serial_number).toBe(issued.serial_number);
  });
});
