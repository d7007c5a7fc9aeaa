import type { Page } from '@playwright/test';
import type { EnrollmentCertificate } from '../../contract/schemas/enrollments.ts';
import { expect } from '../fixtures.ts';

/** The enrollment page as the enrollee uses it (src/features/enrollment). */

export async function goToEnrollmentLink(page: Page, link: string): Promise<void> {
  const url = new URL(link);
  await page.goto(`${url.pathname}${url.search}`);
  await expect(page.getByRole('heading', { name: 'Certificate enrollment', level: 1 })).toBeVisible();
}

export async function clickHardwareToken(page: Page): Promise<void> {
  await page.getByRole('radio', { name: /On a hardware token/ }).check();
}

export async function fillNewSoftwareKeystore(page: Page, pin: string): Promise<void> {
  await page.getByLabel('New PIN', { exact: true }).fill(pin);
  await page.getByLabel('New PIN again').fill(pin);
  await page.getByRole('button', { name: 'Create the keystore' }).click();
}

export async function clickToken(page: Page, label: string): Promise<void> {
  await page.getByRole('radio', { name: new RegExp(`^${label} \\(`) }).check();
}

/** The key type of the software keystore's new key, by its label ("ECDSA, curve P-256"). */
export async function chooseKeyType(page: Page, label: string): Promise<void> {
  await page.getByLabel('Key type').selectOption({ label });
}

export async function fillPin(page: Page, pin: string): Promise<void> {
  const field = page.getByLabel(/^PIN of /);
  await field.fill(pin);
  await page.getByRole('button', { name: 'Unlock and continue' }).click();
}

export async function assertInvalidPin(page: Page): Promise<void> {
  await expect(page.getByRole('alert')).toContainText('The PIN is not correct.');
}

export async function assertOnStep(page: Page, step: number, title: string, hash: string): Promise<void> {
  // The last step follows the key generation and the keystore's write, whose PBKDF2 (600,000
  // iterations) takes seconds on a busy machine.
  await expect(page.getByRole('heading', { name: `Step ${step} of 4: ${title}` })).toBeVisible({
    timeout: step === 4 ? 30_000 : undefined,
  });
  await expect(page).toHaveURL(new RegExp(`#${hash}$`));
}

export async function clickContinue(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Continue' }).click();
}

export async function clickIssue(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Issue the certificate' }).click();
}

/**
 * Details and issue, from step 2 to the last: the CA's answer, as the page received it. The issue
 * step names the key it makes (`key`, RSA 2048 unless the enrollee chose another).
 */
export async function issueCertificate(page: Page, key = 'RSA, 2048 bits'): Promise<EnrollmentCertificate> {
  await assertOnStep(page, 2, 'Your details', 'details');
  await clickContinue(page);
  await assertOnStep(page, 3, 'Issue', 'issue');
  await expect(page.getByText(`${key}, made in the keystore; it never leaves it`)).toBeVisible();
  const answer = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().endsWith('/certificate'),
  );
  await clickIssue(page);
  const issued = (await (await answer).json()) as EnrollmentCertificate;
  await assertOnStep(page, 4, 'Certificate', 'done');
  return issued;
}

export async function assertCertificateShown(page: Page, commonName: string, serial: string): Promise<void> {
  await expect(page.getByText('The certificate is issued and stored next to its key')).toBeVisible();
  await expect(
    page
      .getByRole('definition')
      .filter({ hasText: `CN=${commonName}` })
      .first(),
  ).toBeVisible();
  await expect(page.getByText(serial, { exact: true })).toBeVisible();
  await expect(page.locator('[data-status="issued"]')).toHaveText('Issued');
}

/** The desktop client's variant of the install: its keystore, the PIN, the install. */
export async function installWithDesktopClient(page: Page, keystore: string, pin: string): Promise<void> {
  await page.getByRole('radio', { name: keystore, exact: true }).check();
  await page.getByLabel(`PIN of ${keystore}`).fill(pin);
  await page.getByRole('button', { name: 'Install the certificate' }).click();
}
