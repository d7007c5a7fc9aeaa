import type { Locator, Page } from '@playwright/test';
import { CONSOLE_BASE_PATH } from '../../contract/paths.ts';
import { assertAccessible, expect } from '../fixtures.ts';

const ADMINISTRATORS_PATH = `${CONSOLE_BASE_PATH}/access/administrators`;

function administratorsTable(page: Page): Locator {
  return page.getByRole('region', { name: 'Administrators table' }).getByRole('table');
}

function filters(page: Page): Locator {
  return page.getByRole('search', { name: 'Filter administrators' });
}

/** Opens Access › Administrators from the main navigation. */
export async function openAdministratorsFromNavigation(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Administrators' })
    .click();
}

/** The list once its rows, or its empty state, have arrived. */
export async function assertAdministratorsListed(page: Page): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === ADMINISTRATORS_PATH);
  await expect(page.getByRole('heading', { name: 'Administrators', level: 1 })).toBeVisible();
  await expect(
    administratorsTable(page).or(page.getByText('No administrators match these filters.')),
  ).toBeVisible();
  await assertAccessible(page);
}

export function administratorRow(page: Page, fullName: string): Locator {
  return administratorsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: fullName }) });
}

/** The full names of the rows, top to bottom. */
export async function listedNames(page: Page): Promise<string[]> {
  return (await administratorsTable(page).getByRole('rowheader').allTextContents()).map((name) =>
    name.trim(),
  );
}

export async function search(page: Page, text: string): Promise<void> {
  await filters(page)
    .getByRole('searchbox', { name: /Search/ })
    .fill(text);
}

export async function filterByStatus(page: Page, status: string): Promise<void> {
  await filters(page).getByLabel('Status').selectOption({ label: status });
}

export async function sortBy(page: Page, column: string): Promise<void> {
  await administratorsTable(page).getByRole('button', { name: column, exact: true }).click();
}

export async function openAdministrator(page: Page, fullName: string): Promise<void> {
  await administratorsTable(page).getByRole('link', { name: fullName }).click();
}

export async function assertOnAdministratorDetails(page: Page, fullName: string): Promise<void> {
  await expect(page.getByRole('heading', { name: fullName, level: 1 })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname.startsWith(`${ADMINISTRATORS_PATH}/`));
  await expect(
    page.getByRole('region', { name: 'Accounts and roles' }).getByRole('term').first(),
  ).toBeVisible();
  await assertAccessible(page);
}

export async function clickBack(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Back' }).click();
}
