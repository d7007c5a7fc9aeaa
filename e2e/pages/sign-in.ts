import type { Page } from '@playwright/test';
import { LOGIN_PATH } from '../../contract/paths.ts';
import { decodeSignInState } from '../../contract/schemas/identity.ts';
import { assertAccessible, expect } from '../fixtures.ts';

export interface Credentials {
  username: string;
  password: string;
}

export async function goToSignIn(page: Page): Promise<void> {
  await page.goto(LOGIN_PATH);
}

/** Where the console will go after sign-in: a `returnPath` query value or the state's return_path. */
function returnPathOf(url: URL): string | null {
  return (
    url.searchParams.get('returnPath') ??
    decodeSignInState(url.searchParams.get('state'))?.return_path ??
    null
  );
}

export async function assertOnSignIn(page: Page, expected: { returnPath?: string } = {}): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === LOGIN_PATH);
  if (expected.returnPath) expect(returnPathOf(new URL(page.url()))).toBe(expected.returnPath);
  await assertAccessible(page);
}

export async function fillUsername(page: Page, username: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
}

export async function clickNext(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Next' }).click();
}

export async function assertOnPasswordStep(page: Page): Promise<void> {
  await expect(page.getByLabel('Password')).toBeVisible();
  await assertAccessible(page);
}

export async function fillPassword(page: Page, password: string): Promise<void> {
  await page.getByLabel('Password').fill(password);
}

export async function clickSignIn(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Both steps of the username-first sign-in, from the sign-in page. */
export async function fillSignInSteps(page: Page, credentials: Credentials): Promise<void> {
  await fillUsername(page, credentials.username);
  await clickNext(page);
  await assertOnPasswordStep(page);
  await fillPassword(page, credentials.password);
  await clickSignIn(page);
}

/** Signs in through the sign-in page and waits for the console's shell. */
export async function signIn(page: Page, credentials: Credentials): Promise<void> {
  await goToSignIn(page);
  await assertOnSignIn(page);
  await fillSignInSteps(page, credentials);
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
}

export async function assertSignInRefused(page: Page): Promise<void> {
  await expect(
    page.getByRole('alert').filter({ hasText: 'The username or password is incorrect.' }),
  ).toBeVisible();
  await assertOnPasswordStep(page);
}

/** Picks a language whether the dropdown is a native select or a listbox of options. */
export async function clickLanguage(page: Page, language: string): Promise<void> {
  const dropdown = page.getByRole('combobox', { name: 'Language' });
  if ((await dropdown.evaluate((element) => element.tagName)) === 'SELECT') {
    await dropdown.selectOption({ label: language });
  } else {
    await dropdown.click();
    await page.getByRole('option', { name: language }).click();
  }
}

export async function assertDocumentLanguage(page: Page, lang: string): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}
