import { apiPaths, CONSOLE_BASE_PATH } from '../contract/paths.ts';
import type { Profile } from '../contract/schemas/profile.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { setChecked } from './pages/controls.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { createProfileThroughApi, issueCertificateThroughApi } from './support/certificates-api.ts';

/** Names unique to this run, so a story repeated on the same server finds only its own certificate. */
const RUN = Date.now().toString(36);
const COMMON_NAME = `laptop-${RUN}.example.com`;

test('an administrator finds an issued certificate, reads its details and revokes it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);

  await test.step('a device gets a certificate under a profile through the API', async () => {
    const token = await signInThroughApi(request, {
      username: ADMINISTRATOR.username,
      password: ADMINISTRATOR.password,
    });
    const profileResponse = await request.get(apiPaths.profile, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const { primary_account_id: accountId } = (await profileResponse.json()) as Profile;
    const profile = await createProfileThroughApi(request, token, accountId, `Laptops ${RUN}`);
    const issued = await issueCertificateThroughApi(request, token, profile.id, COMMON_NAME);
    expect(issued.status).toBe('issued');
  });

  await test.step('the administrator finds it in Certificate authority › Certificates', async () => {
    await goToSignIn(page);
    await assertOnSignIn(page);
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
    await page.goto(`${CONSOLE_BASE_PATH}/ca/certificates`);
    await expect(page.getByRole('heading', { name: 'Certificates', level: 1 })).toBeVisible();
    await page.getByLabel('Search').fill(COMMON_NAME);
    const table = page.getByRole('table', { name: 'Certificates' });
    const row = table.getByRole('row').filter({ hasText: COMMON_NAME });
    await expect(row).toHaveCount(1);
    await expect(row.getByText('Issued', { exact: true }).first()).toHaveClass(/certificate-status--issued/);
    await expect(page).toHaveURL(/q=laptop-/);
    await assertAccessible(page);
    await row.getByRole('link', { name: COMMON_NAME }).click();
  });

  await test.step('its details show the parsed subject and issuer', async () => {
    await expect(page.getByRole('heading', { name: COMMON_NAME, level: 1 })).toBeVisible();
    const subject = page.getByRole('region', { name: 'Subject' });
    await expect(subject.getByText(COMMON_NAME, { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Issuer' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download PKCS#7 with chain' })).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('revoking it with a reason turns its status red', async () => {
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Revoke ${COMMON_NAME}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Reason').selectOption('keyCompromise');
    await setChecked(dialog.getByRole('checkbox', { name: /I understand/ }), true);
    await assertAccessible(page);
    await dialog.getByRole('button', { name: 'Revoke certificate' }).click();
    await expect(dialog).toBeHidden();
    const badge = page.locator('.list-heading').getByText('Revoked', { exact: true });
    await expect(badge).toHaveClass(/certificate-status--revoked/);
    await expect(page.getByText('Key compromised')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Revoke', exact: true })).toHaveCount(0);
    await assertAccessible(page);
  });
});
