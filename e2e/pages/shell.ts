import type { Page } from '@playwright/test';
import { ACCOUNTS_LIST_PATH, CONSOLE_BASE_PATH } from '../../contract/paths.ts';
import { assertAccessible, expect } from '../fixtures.ts';

export const PROFILE_PATH = `${CONSOLE_BASE_PATH}/profile`;

export async function goToConsoleHome(page: Page): Promise<void> {
  await page.goto(`${CONSOLE_BASE_PATH}/`);
}

export async function goToProfile(page: Page): Promise<void> {
  await page.goto(PROFILE_PATH);
}

async function assertShell(page: Page): Promise<void> {
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
}

export async function assertOnAccounts(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === ACCOUNTS_LIST_PATH);
  await assertShell(page);
  await assertAccessible(page);
}

export async function assertOnProfile(page: Page): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === PROFILE_PATH);
  await assertShell(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await assertAccessible(page);
}

export async function clickUserMenu(page: Page, displayName: string): Promise<void> {
  await page.getByRole('button', { name: displayName }).click();
}

export async function clickSignOut(page: Page): Promise<void> {
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}

/** Pins the light or dark theme through the header's theme menu. */
export async function chooseTheme(page: Page, theme: 'Light' | 'Dark'): Promise<void> {
  await page.getByRole('button', { name: /^Theme: / }).click();
  await page.getByRole('menuitem', { name: theme, exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme.toLowerCase());
}

function updateBanner(page: Page) {
  return page.getByRole('region', { name: 'New version' });
}

/** The banner over every page offering the new build that waits. */
export async function assertUpdateOffered(page: Page): Promise<void> {
  await expect(updateBanner(page).getByRole('status')).toHaveText('A new version is available.');
  await assertAccessible(page);
}

/** Accepts the new build: the page reloads once its worker controls the page. */
export async function clickReloadForUpdate(page: Page): Promise<void> {
  await updateBanner(page).getByRole('button', { name: 'Reload', exact: true }).click();
}

export async function assertNoUpdateOffered(page: Page): Promise<void> {
  await expect(updateBanner(page)).toHaveCount(0);
}
