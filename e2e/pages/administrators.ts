import type { Locator, Page } from '@playwright/test';
import { CONSOLE_BASE_PATH } from '../../contract/paths.ts';
import { assertAccessible, expect } from '../fixtures.ts';
import { setChecked } from './controls.ts';

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

/* ---- Changing administrators (decision 018 slice 2) ---- */

/** Opens the create wizard from the list's button. */
export async function clickCreateAdministrator(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Create administrator' }).click();
  await expect(page.getByRole('heading', { name: 'Create administrator', level: 1 })).toBeVisible();
}

/** The wizard at step `step`: its legend shows, the address says it, and the page is accessible. */
export async function assertOnWizardStep(page: Page, step: number): Promise<void> {
  await expect(page.getByRole('group', { name: new RegExp(`^Step ${step} of 4`) })).toBeVisible();
  if (step > 1) await expect(page).toHaveURL((url) => url.hash === `#step=${step}`);
  await assertAccessible(page);
}

export async function clickWizardNext(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Next', exact: true }).click();
}

export interface NewAdministrator {
  firstName: string;
  lastName: string;
  email: string;
  userName: string;
}

export async function fillIdentity(page: Page, person: NewAdministrator): Promise<void> {
  await page.getByLabel('First name').fill(person.firstName);
  await page.getByLabel('Last name').fill(person.lastName);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByLabel('Username').fill(person.userName);
}

export async function choosePrimaryAccount(page: Page, accountName: string): Promise<void> {
  await page.getByLabel('Primary account').selectOption({ label: accountName });
}

export async function chooseRole(page: Page, roleName: string): Promise<void> {
  await setChecked(page.getByRole('checkbox', { name: new RegExp(`^${roleName}`) }), true);
}

export async function clickCreate(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Create administrator' }).click();
}

/** A success notice of account administration §8, as the toast shows it. */
export async function assertNotice(page: Page, text: string): Promise<void> {
  await expect(page.getByText(text, { exact: true })).toBeVisible();
}

/** Chooses an entry of a row's action menu. */
export async function chooseRowAction(page: Page, fullName: string, action: string): Promise<void> {
  await administratorRow(page, fullName)
    .getByRole('button', { name: `Actions for ${fullName}` })
    .click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

export async function selectRow(page: Page, fullName: string): Promise<void> {
  await administratorRow(page, fullName)
    .getByRole('checkbox', { name: `Select ${fullName}` })
    .check();
}

/** Delete selected: the dialog, DELETE typed, confirmed. */
export async function deleteSelected(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Delete selected' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete administrators' });
  await expect(dialog).toBeVisible();
  await assertAccessible(page);
  await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  await dialog.getByRole('button', { name: 'Delete administrators' }).click();
}
