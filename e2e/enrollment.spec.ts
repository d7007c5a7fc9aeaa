import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EnrollmentCertificate } from '../contract/schemas/enrollments.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import {
  assertCertificateShown,
  assertInvalidPin,
  chooseKeyType,
  clickHardwareToken,
  clickToken,
  fillNewSoftwareKeystore,
  fillPin,
  goToEnrollmentLink,
  issueCertificate,
} from './pages/enrollment.ts';
import {
  createEnrollment,
  enrollmentProfile,
  SOFTHSM_MODULE,
  type StoryAgent,
  startStoryAgent,
} from './support/trust-agent.ts';

const TOKEN_LABEL = 'field-token';
const TOKEN_PIN = '246810';
const SOFTWARE_PIN = '13572468';
const RUN = Date.now().toString(36);

let story: StoryAgent | null = null;
let accountId = '';
let profileId = '';

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

test.beforeAll(async ({ request }) => {
  ({ accountId, profileId } = await enrollmentProfile(request, `Enrollment ${RUN}`));
  story = await startStoryAgent({ tokens: [TOKEN_LABEL], pin: TOKEN_PIN, softwareKeystore: true });
});

test.afterAll(async () => {
  await story?.stop();
});

/**
 * openssl accepts the certificate under the chain the CA answered with; answers openssl's text of
 * the certificate, which names its key.
 */
async function assertVerifies(issued: EnrollmentCertificate, name: string): Promise<string> {
  const dir = story?.dir ?? '';
  const certificate = path.join(dir, `${name}.pem`);
  const chain = path.join(dir, `${name}-chain.pem`);
  await writeFile(certificate, issued.x509_cert);
  await writeFile(chain, issued.chain.join('\n'));
  expect(run('openssl', ['verify', '-CAfile', chain, certificate])).toContain(': OK');
  return run('openssl', ['x509', '-in', certificate, '-noout', '-text']);
}

test('a technician enrolls a laptop into the software keystore, with RSA 2048 and then an ECDSA P-256 key, and a token through SoftHSM2', async ({
  page,
  request,
  mailbox,
}) => {
  await test.step('the software keystore: created with a PIN, then the key, the certificate and the redeem', async () => {
    const device = `Laptop ${RUN}`;
    await goToEnrollmentLink(
      page,
      await createEnrollment(request, mailbox, { accountId, profileId }, device),
    );
    await fillNewSoftwareKeystore(page, SOFTWARE_PIN);
    await fillPin(page, '00000000');
    await assertInvalidPin(page);
    await assertAccessible(page);
    await fillPin(page, SOFTWARE_PIN);
    const issued = await issueCertificate(page);
    await assertCertificateShown(page, device, issued.serial_number);
    await assertAccessible(page);
    // The key type the page preselects: RSA 2048, which the profile accepts among others.
    const text = await assertVerifies(issued, 'software');
    expect(text).toContain('Public Key Algorithm: rsaEncryption');
    expect(text).toContain('Public-Key: (2048 bit)');
  });

  await test.step('a reload after the issue leads to the link error page: the link was used', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'This enrollment link was used already' })).toBeVisible();
    await expect(page).toHaveURL(/\/clientAuthLoginVerificationError\/409\?reason=enrollmentUsed$/);
  });

  await test.step('the software keystore again, with an ECDSA P-256 key the enrollee picks', async () => {
    const device = `Laptop EC ${RUN}`;
    await goToEnrollmentLink(
      page,
      await createEnrollment(request, mailbox, { accountId, profileId }, device),
    );
    await chooseKeyType(page, 'ECDSA, curve P-256');
    await assertAccessible(page);
    await fillPin(page, SOFTWARE_PIN);
    const issued = await issueCertificate(page, 'ECDSA, curve P-256');
    await assertCertificateShown(page, device, issued.serial_number);
    const text = await assertVerifies(issued, 'software-ec');
    expect(text).toContain('Public Key Algorithm: id-ecPublicKey');
    expect(text).toContain('NIST CURVE: P-256');
  });

  await test.step('a hardware token: chosen from the list, a wrong PIN refused, the key made on the token', async () => {
    const device = `Token ${RUN}`;
    await goToEnrollmentLink(
      page,
      await createEnrollment(request, mailbox, { accountId, profileId }, device),
    );
    await clickHardwareToken(page);
    await expect(page.getByText('Keep the token connected until the certificate is in it.')).toBeVisible();
    await clickToken(page, TOKEN_LABEL);
    await fillPin(page, '999999');
    await assertInvalidPin(page);
    await fillPin(page, TOKEN_PIN);
    const issued = await issueCertificate(page);
    await assertCertificateShown(page, device, issued.serial_number);
    await assertVerifies(issued, 'token');

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
    expect(objects).toContain('Certificate Object');
    expect(objects).toContain(`CN=${device}`);
    expect(objects).toMatch(/Private Key Object[\s\S]*never extractable/);
  });
});
