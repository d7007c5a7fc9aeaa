import { apiPaths } from '../contract/paths.ts';
import { API_TOKEN_PATTERN, type ApiTokenList } from '../contract/schemas/api-tokens.ts';
import type { AuthMe } from '../contract/schemas/identity.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { assertOnAdministratorDetails } from './pages/administrators.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { ADMINISTRATOR, ADMINISTRATOR_DISPLAY_NAME } from './support/administrator.ts';

/** A name unique to this run, so a scenario repeated on the same server finds only its own token. */
const TOKEN_NAME = `Nightly export ${Date.now().toString(36)}`;

test('a person makes an API token, sees it once, calls the API with it and revokes it', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  let value = '';

  await test.step('the administrator signs in and opens their own details', async () => {
    await goToSignIn(page);
    await assertOnSignIn(page);
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
    await page.goto('/account/profile/details');
    await assertOnAdministratorDetails(page, ADMINISTRATOR_DISPLAY_NAME);
    await expect(page.getByRole('region', { name: 'API tokens' })).toBeVisible();
  });

  await test.step('creating a token shows its value once, with copy', async () => {
    const section = page.getByRole('region', { name: 'API tokens' });
    await section.getByRole('button', { name: 'Create API token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API token' });
    await dialog.getByLabel('Name').fill(TOKEN_NAME);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('alertdialog', { name: 'Your new API token' });
    await expect(shown.getByText('Copy this token now. It will not be shown again.')).toBeVisible();
    await expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
    value = await shown.getByLabel(`API token ${TOKEN_NAME}`).inputValue();
    expect(value).toMatch(API_TOKEN_PATTERN);
    await assertAccessible(page);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();
    await expect(section.getByRole('rowheader', { name: TOKEN_NAME })).toBeVisible();
    await expect(page.locator('body')).not.toContainText(value);
  });

  await test.step('the token calls the API as its user, and is never listed with its value', async () => {
    const me = await request.get(apiPaths.identity.me, { headers: { Authorization: `Bearer ${value}` } });
    expect(me.status()).toBe(200);
    const caller = (await me.json()) as AuthMe;
    expect(caller.user_name).toBe(ADMINISTRATOR.username);
    const tokens = await request.get(apiPaths.users.apiTokens(caller.id), {
      headers: { Authorization: `Bearer ${value}` },
    });
    expect(tokens.status()).toBe(200);
    const text = await tokens.text();
    expect(text).not.toContain(value);
    expect((JSON.parse(text) as ApiTokenList).items.map((token) => token.name)).toContain(TOKEN_NAME);
  });

  await test.step('revoking asks for confirmation, then the token is gone from the list', async () => {
    const section = page.getByRole('region', { name: 'API tokens' });
    await section.getByRole('button', { name: `Revoke ${TOKEN_NAME}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Revoke ${TOKEN_NAME}?` });
    await expect(confirm).toBeVisible();
    await assertAccessible(page);
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(section.getByRole('rowheader', { name: TOKEN_NAME })).toBeHidden();
  });

  await test.step('the same call now answers 401', async () => {
    const me = await request.get(apiPaths.identity.me, { headers: { Authorization: `Bearer ${value}` } });
    expect(me.status()).toBe(401);
  });
});
