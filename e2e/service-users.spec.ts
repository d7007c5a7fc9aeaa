import { apiPaths, CONSOLE_BASE_PATH } from '../contract/paths.ts';
import { API_TOKEN_PATTERN } from '../contract/schemas/api-tokens.ts';
import type { AuthMe } from '../contract/schemas/identity.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { setChecked } from './pages/controls.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { ADMINISTRATOR } from './support/administrator.ts';

/** A name unique to this run, so a scenario repeated on the same server finds only its own service user. */
const SERVICE_USER_NAME = `Nightly export ${Date.now().toString(36)}`;

test('an administrator makes a service user, copies its token, calls the API with it, disables and enables it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  let value = '';
  const whoAmI = () => request.get(apiPaths.identity.me, { headers: { Authorization: `Bearer ${value}` } });

  await test.step('the administrator opens Access › Service users', async () => {
    await goToSignIn(page);
    await assertOnSignIn(page);
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
    await page.goto(`${CONSOLE_BASE_PATH}/access/service-user`);
    await expect(page.getByRole('heading', { name: 'Service users', level: 1 })).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: 'Service users table' })
        .or(page.getByText('There are no service users you can see.')),
    ).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('creating one shows its first token once, with copy', async () => {
    await page.getByRole('link', { name: 'Create service user' }).click();
    await expect(page.getByRole('heading', { name: 'Create service user', level: 1 })).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill(SERVICE_USER_NAME);
    await page.getByLabel('Responsible person’s e-mail').fill('data-team@example.com');
    await setChecked(page.getByRole('checkbox', { name: 'Read-only auditor' }), true);
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(
      page.getByRole('heading', { name: `Service user ${SERVICE_USER_NAME} created` }),
    ).toBeVisible();
    await expect(page.getByText('Copy this token now. It will not be shown again.')).toBeVisible();
    value = await page.getByLabel('API token Initial token').inputValue();
    expect(value).toMatch(API_TOKEN_PATTERN);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Copied\.|Could not copy/ })).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('the token calls the API as the service user', async () => {
    const me = await whoAmI();
    expect(me.status()).toBe(200);
    expect(((await me.json()) as AuthMe).user_name).toBe(SERVICE_USER_NAME);
  });

  await test.step('its details page lists the token without its value', async () => {
    await page.getByRole('button', { name: 'Go to the service user' }).click();
    await expect(page.getByRole('heading', { name: SERVICE_USER_NAME, level: 1 })).toBeVisible();
    const tokens = page.getByRole('region', { name: 'API tokens' });
    await expect(tokens.getByRole('rowheader', { name: 'Initial token' })).toBeVisible();
    await expect(page.locator('body')).not.toContainText(value);
    await assertAccessible(page);
  });

  await test.step('disabled, its token is refused', async () => {
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: `Disable ${SERVICE_USER_NAME}?` });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Disable', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText('Service user disabled.')).toBeVisible();
    expect((await whoAmI()).status()).toBe(401);
  });

  await test.step('enabled again, its token works again', async () => {
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: `Enable ${SERVICE_USER_NAME}?` });
    await confirm.getByRole('button', { name: 'Enable', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText('Service user enabled.')).toBeVisible();
    expect((await whoAmI()).status()).toBe(200);
  });
});
