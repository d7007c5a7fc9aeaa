import type { Locator, Page } from '@playwright/test';
import { CONSOLE_BASE_PATH } from '../../contract/paths.ts';
import { assertAccessible, expect } from '../fixtures.ts';
import { waitForWorkerControl } from '../support/offline.ts';
import { assertOutboxCount } from './outbox.ts';

const ORGANIZATIONS_PATH = `${CONSOLE_BASE_PATH}/ca/organizations`;

export function organizationPath(id: string): string {
  return `${ORGANIZATIONS_PATH}/${encodeURIComponent(id)}`;
}

/** The organizations of `accountId` whose name contains `name`. */
export async function goToOrganizations(
  page: Page,
  search: { accountId: string; name: string },
): Promise<void> {
  await page.goto(`${ORGANIZATIONS_PATH}?${new URLSearchParams(search)}`);
}

/** The organizations list once its rows, or its empty state, have arrived. */
export async function assertOrganizationsListed(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Organizations', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /organization/ })).toBeVisible();
  await assertAccessible(page);
}

/** The row whose name cell reads exactly `name`. */
export function organizationRow(page: Page, name: string): Locator {
  return page
    .getByRole('region', { name: 'Organizations table' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: true }) });
}

export async function clickOrganizationName(page: Page, name: string): Promise<void> {
  await organizationRow(page, name).getByRole('link', { name, exact: true }).click();
}

export async function goToOrganization(page: Page, id: string): Promise<void> {
  await page.goto(organizationPath(id));
}

/** The organization's page, titled with its name (and a pending-sync badge when a change waits). */
export async function assertOnOrganization(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(`^${escapeRegExp(name)}`));
  await expect(page.getByRole('heading', { name: 'Contacts', level: 2 })).toBeVisible();
  await assertAccessible(page);
}

export async function clickEditOrganization(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Edit organization', exact: true }).click();
}

export async function assertOnEditOrganization(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Edit organization', level: 1 })).toBeVisible();
  await expect(page.getByText(`Organization: ${name}`, { exact: true })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname.endsWith('/edit'));
  await assertAccessible(page);
}

/**
 * Opens the organization (its page and contacts now kept for offline use), then its edit form, with
 * the service worker in control so that a save can wait in the outbox.
 */
export async function goToEditOrganization(page: Page, target: { id: string; name: string }): Promise<void> {
  await goToOrganization(page, target.id);
  await assertOnOrganization(page, target.name);
  await waitForWorkerControl(page);
  await clickEditOrganization(page);
  await assertOnEditOrganization(page, target.name);
}

/** Fills the text fields named by their labels ("Name", "City"). */
export async function fillOrganization(page: Page, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) {
    await page.getByRole('textbox', { name: label, exact: true }).fill(value);
  }
}

export async function clickSaveChanges(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save changes', exact: true }).click();
}

/**
 * The notice of a change kept on this device, and the organization's page it returns to. The notice
 * of an earlier change may still show: the newest is this one's.
 */
export async function assertEditKeptOnDevice(page: Page, name: string): Promise<void> {
  await expect(
    page
      .getByText('Saved on this device. The change is sent when the connection returns.', { exact: true })
      .last(),
  ).toBeVisible();
  await expect(page).toHaveURL((url) => !url.pathname.endsWith('/edit'));
  await assertOnOrganization(page, name);
}

/** The organization's title carries the badge of a change not on the server yet. */
export async function assertPendingSync(page: Page): Promise<void> {
  await expect(
    page.getByRole('heading', { level: 1 }).getByText('Pending sync', { exact: true }),
  ).toBeVisible();
}

/**
 * Saves the edit form while offline: the change is kept on this device, shown on the organization's
 * page, and the header counts `waiting` changes.
 */
export async function saveOrganizationOffline(
  page: Page,
  fields: Record<string, string>,
  { shownName, waiting }: { shownName: string; waiting: number },
): Promise<void> {
  await fillOrganization(page, fields);
  await clickSaveChanges(page);
  await assertEditKeptOnDevice(page, shownName);
  await assertPendingSync(page);
  await assertOutboxCount(page, waiting);
}

/** Renames the organization on the edit form while offline, the only change waiting. */
export async function renameOrganizationOffline(page: Page, newName: string): Promise<void> {
  await saveOrganizationOffline(page, { Name: newName }, { shownName: newName, waiting: 1 });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
