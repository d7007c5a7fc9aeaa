import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { CONSOLE_BASE_PATH } from '../contract/paths.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { setChecked } from './pages/controls.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { ADMINISTRATOR } from './support/administrator.ts';

/** A name unique to this run, so a scenario repeated on the same server finds only its own profile. */
const PROFILE_NAME = `Field laptops ${Date.now().toString(36)}`;
const RENAMED = `${PROFILE_NAME} (EC)`;

async function signIn(page: Page) {
  await goToSignIn(page);
  await assertOnSignIn(page);
  await fillSignInSteps(page, ADMINISTRATOR);
  await assertOnAccounts(page);
}

/** Clicks a download link and answers the file it saved. */
async function download(page: Page, name: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  const saved = await file.path();
  return readFile(saved);
}

test('the administrator defines a certificate profile, changes it, and reads and downloads the CAs', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);

  await test.step('creating a profile from the profiles list', async () => {
    await page.goto(`${CONSOLE_BASE_PATH}/ca/profiles`);
    await expect(page.getByRole('heading', { name: 'Certificate profiles', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'Create profile' }).click();
    await expect(page.getByRole('heading', { name: 'Create certificate profile', level: 1 })).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill(PROFILE_NAME);
    await page.getByLabel('Validity (days)').fill('90');
    await setChecked(page.getByRole('checkbox', { name: 'Digital signature' }), true);
    await page.getByRole('combobox', { name: 'DNS names' }).selectOption('optional');
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(page.getByText('Certificate profile created.')).toBeVisible();
    await expect(page.getByRole('heading', { name: PROFILE_NAME, level: 1 })).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('the list shows it with its validity and key usages', async () => {
    await page.goto(`${CONSOLE_BASE_PATH}/ca/profiles`);
    await page.getByRole('searchbox', { name: 'Name' }).fill(PROFILE_NAME);
    const row = page.getByRole('row', { name: new RegExp(PROFILE_NAME) });
    await expect(row).toContainText('90 days');
    await expect(row).toContainText('Authentication, Digital signature');
    await assertAccessible(page);
  });

  await test.step('editing it keeps EC keys only, under a new name', async () => {
    const row = page.getByRole('row', { name: new RegExp(PROFILE_NAME) });
    await row.getByRole('link', { name: `Edit ${PROFILE_NAME}` }).click();
    await expect(
      page.getByRole('heading', { name: `Edit certificate profile: ${PROFILE_NAME}` }),
    ).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill(RENAMED);
    for (const size of ['RSA 2048', 'RSA 3072', 'RSA 4096']) {
      await setChecked(page.getByRole('checkbox', { name: size }), false);
    }
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Certificate profile updated.')).toBeVisible();
    await expect(page.getByRole('heading', { name: RENAMED, level: 1 })).toBeVisible();
    await expect(page.getByText('EC P-256, EC P-384')).toBeVisible();
  });

  await test.step('the root CA page shows its certificate, and the downloads are that certificate', async () => {
    await page.goto(`${CONSOLE_BASE_PATH}/ca/root`);
    await expect(page.getByRole('heading', { name: 'Root CA', level: 1 })).toBeVisible();
    await expect(page.getByText('SHA-256 fingerprint')).toBeVisible();
    const fingerprint =
      (await page.getByText('SHA-256 fingerprint').locator('xpath=following-sibling::dd').textContent()) ??
      '';
    await assertAccessible(page);

    const der = await download(page, 'Certificate (.crt, DER)');
    expect(der[0]).toBe(0x30);
    const certificate = new X509Certificate(der);
    expect(certificate.fingerprint256).toBe(fingerprint.trim());
    expect(certificate.ca).toBe(true);

    const pem = (await download(page, 'Certificate (.pem)')).toString('utf8');
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\r?\n/);
    expect(new X509Certificate(pem).fingerprint256).toBe(certificate.fingerprint256);
  });

  await test.step('the intermediate CA page shows its revocation list, and its CRL downloads', async () => {
    await page.goto(`${CONSOLE_BASE_PATH}/ca/intermediate`);
    await expect(page.getByRole('heading', { name: 'Intermediate CA', level: 1 })).toBeVisible();
    await expect(page.getByText('CRL number')).toBeVisible();
    await assertAccessible(page);
    const der = await download(page, 'Certificate (.crt, DER)');
    const certificate = new X509Certificate(der);
    expect(certificate.ca).toBe(true);
    const crl = await download(page, 'Revocation list (.crl)');
    // A DER SEQUENCE: the CertificateList of RFC 5280.
    expect(crl[0]).toBe(0x30);
    expect(crl.length).toBeGreaterThan(100);
  });
});
