import type { Page } from '@playwright/test';
import { ACCOUNTS_LIST_PATH, CONSOLE_BASE_PATH } from '../contract/paths.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { assertOnAccounts } from './pages/shell.ts';
import {
  assertDocumentLanguage,
  assertOnPasswordStep,
  assertOnSignIn,
  assertSignInRefused,
  clickLanguage,
  clickNext,
  clickSignIn,
  fillPassword,
  fillUsername,
  goToSignIn,
  signIn,
} from './pages/sign-in.ts';
import { ADMINISTRATOR } from './support/administrator.ts';

test('a wrong password is refused and the administrator can try again', async ({ page }) => {
  await goToSignIn(page);
  await assertOnSignIn(page);
  await fillUsername(page, ADMINISTRATOR.username);
  await clickNext(page);
  await assertOnPasswordStep(page);
  await fillPassword(page, `${ADMINISTRATOR.password}-wrong`);
  await clickSignIn(page);
  await assertSignInRefused(page);
});

test('the sign-in page switches to German', async ({ page }) => {
  await goToSignIn(page);
  await assertOnSignIn(page);
  await assertDocumentLanguage(page, 'en');
  await clickLanguage(page, 'Deutsch');
  await assertDocumentLanguage(page, 'de');
  await expect(page.getByRole('button', { name: 'Next', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Weiter', exact: true })).toBeVisible();
});

test('the sign-in page works before the router has loaded, which comes once the username is sent', async ({
  page,
}) => {
  // A visit that starts on sign-in draws it without the router (docs/decisions/030).
  const scripts: string[] = [];
  page.on('request', (request) => {
    const file = new URL(request.url()).pathname.split('/').pop() ?? '';
    if (file.endsWith('.js')) scripts.push(file);
  });
  const routerRequested = () => scripts.some((file) => file.startsWith('router-'));
  await page.goto(`${CONSOLE_BASE_PATH}/`);
  await assertOnSignIn(page, { returnPath: ACCOUNTS_LIST_PATH });
  await expect(page.getByRole('button', { name: 'Next' })).toBeEnabled();
  expect(routerRequested()).toBe(false);

  await fillUsername(page, ADMINISTRATOR.username);
  await clickNext(page);
  await assertOnPasswordStep(page);
  await expect.poll(routerRequested).toBe(true);
  await fillPassword(page, ADMINISTRATOR.password);
  await clickSignIn(page);
  await assertOnAccounts(page);
});

test.describe('on a slow network, before the page’s code has arrived', () => {
  // Every script is fetched from the network, where the test holds it back, not from the worker.
  test.use({ serviceWorkers: 'block' });

  /** Holds the console's scripts back until the returned function is called. */
  async function holdScripts(page: Page): Promise<() => void> {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**${CONSOLE_BASE_PATH}/assets/*.js`, async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }

  test('the sign-in form takes the username, and the page keeps it with the focus', async ({ page }) => {
    // What shows meanwhile is index.html's preview of the page (docs/decisions/029-sign-in-preview.md).
    const releaseScripts = await holdScripts(page);
    // Only to the answer: the page's load waits for the scripts held back.
    await page.goto(`${CONSOLE_BASE_PATH}/`, { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    const next = page.getByRole('button', { name: 'Next' });
    await expect(next).toBeDisabled();
    await expect(page.getByLabel('Language')).toBeDisabled();
    await assertAccessible(page);

    const username = page.getByLabel('Username');
    await username.click();
    await page.keyboard.type(ADMINISTRATOR.username);
    releaseScripts();

    await expect(next).toBeEnabled();
    await expect(username).toHaveValue(ADMINISTRATOR.username);
    await expect(username).toBeFocused();
    await page.keyboard.press('Enter');
    await assertOnPasswordStep(page);
    await fillPassword(page, ADMINISTRATOR.password);
    await clickSignIn(page);
    await assertOnAccounts(page);
  });

  test('a browser that holds a session is not shown the sign-in form', async ({ page }) => {
    await signIn(page, ADMINISTRATOR);
    await assertOnAccounts(page);

    const releaseScripts = await holdScripts(page);
    await page.goto(`${CONSOLE_BASE_PATH}/`, { waitUntil: 'commit' });
    await expect(page.locator('.boot')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeHidden();
    releaseScripts();
    await assertOnAccounts(page);
  });
});
