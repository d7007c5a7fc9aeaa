import type { Locator, Page } from '@playwright/test';
import { CONSOLE_BASE_PATH } from '../../contract/paths.ts';
import { assertAccessible, expect } from '../fixtures.ts';

export const ROLES_PATH = `${CONSOLE_BASE_PATH}/access/manage-user-roles`;

function rolesTable(page: Page): Locator {
  return page.getByRole('region', { name: 'Roles table' }).getByRole('table');
}

/** Opens Access › User roles from the main navigation. */
export async function openRolesFromNavigation(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'User roles' })
    .click();
}

/** The list once its rows, or its empty state, have arrived. */
export async function assertRolesListed(page: Page): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === ROLES_PATH);
  await expect(page.getByRole('heading', { name: 'User roles', level: 1 })).toBeVisible();
  await expect(rolesTable(page).or(page.getByText('No roles match these filters.'))).toBeVisible();
  await assertAccessible(page);
}

export async function filterRolesByType(page: Page, type: 'Built-in' | 'Custom' | 'All'): Promise<void> {
  await page.getByRole('search', { name: 'Filter roles' }).getByLabel('Type').selectOption({ label: type });
}

export async function searchRoles(page: Page, text: string): Promise<void> {
  await page.getByRole('search', { name: 'Filter roles' }).getByLabel('Search').fill(text);
}

export async function openRole(page: Page, name: string): Promise<void> {
  await rolesTable(page).getByRole('link', { name, exact: true }).click();
  await assertOnRoleDetails(page, name);
}

export async function assertOnRoleDetails(page: Page, name: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname.startsWith(`${ROLES_PATH}/role-detail/`));
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Users holding this role', level: 2 })).toBeVisible();
  await assertAccessible(page);
}

/** The role form, once its permission groups arrived. */
export async function assertOnRoleForm(page: Page, title: string): Promise<void> {
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Users and roles' })).toBeVisible();
  await assertAccessible(page);
}

export function permissionBox(page: Page, label: string): Locator {
  return page.getByRole('checkbox', { name: label, exact: true });
}

export async function fillRoleName(page: Page, name: string): Promise<void> {
  await page.getByLabel('Name', { exact: true }).fill(name);
}

/** Assigns the role, from its details page, to the user the search finds. */
export async function assignUser(page: Page, search: string, fullName: string): Promise<void> {
  await page.getByRole('button', { name: 'Assign users' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Find users').fill(search);
  await dialog.getByRole('button', { name: `Choose ${fullName}` }).click();
  await assertAccessible(page);
  await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Permissions edited.')).toBeVisible();
}

export function roleUserRow(page: Page, fullName: string): Locator {
  return page
    .getByRole('region', { name: 'Users of the role' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: fullName }) });
}
