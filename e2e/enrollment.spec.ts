import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { loadAgentConfig } from '../agent/config.ts';
import { type RunningAgent, startAgent } from '../agent/server.ts';
import { apiPaths } from '../contract/paths.ts';
import type { EnrollmentCertificate, EnrollmentCreated } from '../contract/schemas/enrollments.ts';
import type { Profile } from '../contract/schemas/profile.ts';
import { TRUST_AGENT_PORT } from '../contract/trust-agent/constants.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import {
  assertCertificateShown,
  assertInvalidPin,
  assertOnStep,
  clickContinue,
  clickHardwareToken,
  clickIssue,
  clickToken,
  fillNewSoftwareKeystore,
  fillPin,
  goToEnrollmentLink,
} from './pages/enrollment.ts';
import { signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR, ensureSetUp } from './support/administrator.ts';
import { createProfileThroughApi } from './support/certificates-api.ts';
import { serverPort } from './support/environment.ts';
import { linkIn, type Mailbox } from './support/mailbox.ts';

const MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const TOKEN_LABEL = 'field-token';
const TOKEN_PIN = '246810';
const SOFTWARE_PIN = '13572468';
const RUN = Date.now().toString(36);

let dir = '';
let agent: RunningAgent | null = null;
let accountId = '';
let profileId = '';

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A fresh access token: the stories' tokens live 15 s. */
function administratorToken(request: APIRequestContext): Promise<string> {
  return signInThroughApi(request, { username: ADMINISTRATOR.username, password: ADMINISTRATOR.password });
}

test.beforeAll(async ({ request }) => {
  await ensureSetUp(request);
  const token = await administratorToken(request);
  const profile = await request.get(apiPaths.profile, { headers: { Authorization: `Bearer ${token}` } });
  accountId = ((await profile.json()) as Profile).primary_account_id as string;
  profileId = (await createProfileThroughApi(request, token, accountId, `Enrollment ${RUN}`)).id;

  // A SoftHSM2 token of this story's own: its configuration, its token directory.
  dir = await mkdtemp(path.join(tmpdir(), 'enrollment-e2e-'));
  await mkdir(path.join(dir, 'tokens'));
  process.env.SOFTHSM2_CONF = path.join(dir, 'softhsm2.conf');
  await writeFile(
    process.env.SOFTHSM2_CONF,
    `directories.tokendir = ${path.join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`,
  );
  run('softhsm2-util', [
    '--init-token',
    '--free',
    '--label',
    TOKEN_LABEL,
    '--so-pin',
    '87654321',
    '--pin',
    TOKEN_PIN,
  ]);

  agent = await startAgent({
    ...loadAgentConfig({
      TRUST_AGENT_PORT: String(TRUST_AGENT_PORT),
      TRUST_AGENT_DATA_DIR: path.join(dir, 'agent'),
      TRUST_AGENT_PREAPPROVED_ORIGINS: `http://localhost:${serverPort()}`,
      TRUST_AGENT_PKCS11_MODULES: `softhsm=${MODULE}`,
    }),
    interactive: false,
  });
});

test.afterAll(async () => {
  await agent?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** An administrator enrolls a device of the account; its technician receives the link by mail. */
async function createEnrollment(
  request: APIRequestContext,
  mailbox: Mailbox,
  device: string,
): Promise<string> {
  const technician = `technician-${device.toLowerCase().replace(/\W+/g, '-')}@example.com`;
  const response = await request.post(apiPaths.enrollments.create, {
    headers: { Authorization: `Bearer ${await administratorToken(request)}` },
    data: {
      account_id: accountId,
      profile_id: profileId,
      seat: { kind: 'device', name: device, email: technician },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { enrollment_url: shown } = (await response.json()) as EnrollmentCreated;
  const mailed = linkIn(await mailbox.waitForMail(technician)).href;
  expect(mailed).toBe(shown);
  return mailed;
}

/** Details and issue: the CA's answer, as the page received it. */
async function issue(page: Page): Promise<EnrollmentCertificate> {
  await assertOnStep(page, 2, 'Your details', 'details');
  await clickContinue(page);
  await assertOnStep(page, 3, 'Issue', 'issue');
  const answer = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().endsWith('/certificate'),
  );
  await clickIssue(page);
  const issued = (await (await answer).json()) as EnrollmentCertificate;
  await assertOnStep(page, 4, 'Certificate', 'done');
  return issued;
}

/** openssl accepts the certificate under the chain the CA answered with. */
async function assertVerifies(issued: EnrollmentCertificate, name: string): Promise<void> {
  const certificate = path.join(dir, `${name}.pem`);
  const chain = path.join(dir, `${name}-chain.pem`);
  await writeFile(certificate, issued.x509_cert);
  await writeFile(chain, issued.chain.join('\n'));
  expect(run('openssl', ['verify', '-CAfile', chain, certificate])).toContain(': OK');
}

test('a technician enrolls a laptop into the software keystore, and a token through SoftHSM2', async ({
  page,
  request,
  mailbox,
}) => {
  test.setTimeout(60_000);

  await test.step('the software keystore: created with a PIN, then the key, the certificate and the redeem', async () => {
    const device = `Laptop ${RUN}`;
    await goToEnrollmentLink(page, await createEnrollment(request, mailbox, device));
    await fillNewSoftwareKeystore(page, SOFTWARE_PIN);
    await fillPin(page, '00000000');
    await assertInvalidPin(page);
    await assertAccessible(page);
    await fillPin(page, SOFTWARE_PIN);
    const issued = await issue(page);
    await assertCertificateShown(page, device, issued.serial_number);
    await assertAccessible(page);
    await assertVerifies(issued, 'software');
  });

  await test.step('a reload after the issue leads to the link error page: the link was used', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'This enrollment link was used already' })).toBeVisible();
    await expect(page).toHaveURL(/\/clientAuthLoginVerificationError\/409$/);
  });

  await test.step('a hardware token: chosen from the list, a wrong PIN refused, the key made on the token', async () => {
    const device = `Token ${RUN}`;
    await goToEnrollmentLink(page, await createEnrollment(request, mailbox, device));
    await clickHardwareToken(page);
    await expect(page.getByText('Keep the token connected until the certificate is in it.')).toBeVisible();
    await clickToken(page, TOKEN_LABEL);
    await fillPin(page, '999999');
    await assertInvalidPin(page);
    await fillPin(page, TOKEN_PIN);
    const issued = await issue(page);
    await assertCertificateShown(page, device, issued.serial_number);
    await assertVerifies(issued, 'token');

    const objects = run('pkcs11-tool', [
      '--module',
      MODULE,
      '--token-label',
      TOKEN_LABEL,
      '--list-objects',
      '--login',
      '--pin',
      TOKEN_PIN,
    ]);
    expect(objects).toContain('Certificate Object');
    expect(objects).toContain(`CN=${device}`);
    expect(objects).toMatch(/Private Key Object[\s\S]*never extractable/);
  });
});
