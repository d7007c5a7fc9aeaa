import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { ACCOUNTS_LIST_PATH } from '../../contract/paths.ts';
import { assertAccessible, expect } from '../fixtures.ts';

export interface AccountForm {
  name: string;
  /** `YYYY-MM-DD` */
  endDate: string;
  /** As the language select lists it, e.g. "English (US)". */
  language: string;
}

export interface FirstAdministratorForm {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
}

const ACCOUNT_DETAILS_PATH = new RegExp(`^${ACCOUNTS_LIST_PATH}/[^/]+$`);

export async function goToAccounts(page: Page): Promise<void> {
  await page.goto(ACCOUNTS_LIST_PATH);
}

export async function goToAccountDetails(page: Page, id: string): Promise<void> {
  await page.goto(`${ACCOUNTS_LIST_PATH}/${id}`);
}

// The list

function accountsTable(page: Page): Locator {
  return page.getByRole('region', { name: 'Accounts table' }).getByRole('table');
}

function filters(page: Page): Locator {
  return page.getByRole('search', { name: 'Filter accounts' });
}

/** The accounts list once its rows, or its empty state, have arrived. */
export async function assertAccountsListed(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
  await expect(accountsTable(page).or(page.getByText('No accounts match these filters.'))).toBeVisible();
  await assertAccessible(page);
}

/** The row whose name cell reads exactly `name`. */
export function accountRow(page: Page, name: string): Locator {
  return accountsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: true }) });
}

/** The cell of `row` under the column headed `column`. */
export async function cellOf(page: Page, row: Locator, column: string): Promise<Locator> {
  const index = await accountsTable(page)
    .getByRole('columnheader', { name: column, exact: true })
    .evaluate((header) => (header as HTMLTableCellElement).cellIndex);
  return row.locator(':scope > th, :scope > td').nth(index);
}

/** The total of the range under the table ("1–10 of 23"): every page, not only the one shown. */
export async function listTotal(page: Page): Promise<number> {
  const range = page.getByRole('status').filter({ hasText: /^\d+–\d+ of \d+$/ });
  await expect(range).toBeVisible();
  const match = /of (\d+)$/.exec((await range.textContent()) ?? '');
  if (!match?.[1]) throw new Error('The accounts list shows no total.');
  return Number(match[1]);
}

/**
 * Types `name` into the Name filter and waits until the list shows only the accounts it matches: the
 * filter applies once typing pauses, and until then the previous rows stay on screen.
 */
export async function filterByName(page: Page, name: string): Promise<void> {
  await filters(page).getByRole('searchbox', { name: 'Name', exact: true }).fill(name);
  const wanted = name.toLowerCase();
  await expect
    .poll(async () => {
      if (await page.getByText('No accounts match these filters.').isVisible()) return true;
      const names = await accountsTable(page).getByRole('rowheader').allTextContents();
      return names.length > 0 && names.every((listed) => listed.toLowerCase().includes(wanted));
    }, `the accounts list filtered by the name "${name}"`)
    .toBe(true);
}

export async function assertNoAccountsMatch(page: Page): Promise<void> {
  await expect(
    page.getByRole('status').filter({ hasText: 'No accounts match these filters.' }),
  ).toBeVisible();
  await assertAccessible(page);
}

/** The filter controls show active accounts ending within `days` days. */
export async function assertEndsWithinFilter(page: Page, days: number): Promise<void> {
  const form = filters(page);
  await expect(form.getByRole('combobox', { name: 'Status' })).toHaveValue('active');
  await expect(form.getByRole('combobox', { name: 'End date' })).toHaveValue('within');
  await expect(form.getByRole('spinbutton', { name: 'Days from today' })).toHaveValue(String(days));
  await expect(form.getByRole('button', { name: 'Reset filters' })).toBeVisible();
}

// Expiry banners (system scope)

function expiryBanner(page: Page, days: number): Locator {
  return page.getByRole('button', {
    name: new RegExp(`^\\d+ accounts? expires? within ${days} days Show them$`),
  });
}

/** The count the banner of accounts expiring within `days` days shows. */
export async function expiryBannerCount(page: Page, days: number): Promise<number> {
  const banner = expiryBanner(page, days);
  await expect(banner).toBeVisible();
  return Number(/^\d+/.exec((await banner.textContent()) ?? '')?.[0]);
}

export async function clickExpiryBanner(page: Page, days: number): Promise<void> {
  await expiryBanner(page, days).click();
}

export async function assertNoExpiryBanners(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: /expires? within \d+ days/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Dismiss the notice about accounts expiring/ })).toHaveCount(
    0,
  );
}

/** The banner of a user whose own account is inactive (C-40). */
export async function assertAccountExpiredNotice(page: Page): Promise<void> {
  await expect(page.getByRole('alert').filter({ hasText: 'Your account has expired.' })).toBeVisible();
}

// Export

/** Clicks Export CSV and answers the downloaded file's name and text. */
export async function exportCsv(page: Page): Promise<{ fileName: string; text: string }> {
  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloaded;
  const failure = await download.failure();
  if (failure) throw new Error(`The export failed to download: ${failure}`);
  return { fileName: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

// Create

export async function clickCreatePartnerAccount(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('menuitem', { name: 'Partner account' }).click();
}

/** Partner scope has one create link and no menu of account types. */
export async function assertSingleCreateAccountAction(page: Page): Promise<void> {
  await expect(page.getByRole('link', { name: 'Create account', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create account' })).toHaveCount(0);
}

export async function clickCreateAccount(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Create account', exact: true }).click();
}

export async function assertOnCreatePartnerAccount(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Create partner account', level: 1 })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === `${ACCOUNTS_LIST_PATH}/create-partner-account`);
  await assertAccessible(page);
}

export async function assertOnCreateAccount(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Create account', level: 1 })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === `${ACCOUNTS_LIST_PATH}/create-account`);
  await assertAccessible(page);
}

function accountForm(page: Page): Locator {
  return page.getByRole('form');
}

/** Name, end date and language; the start date stays today. */
export async function fillAccount(page: Page, account: AccountForm): Promise<void> {
  const form = accountForm(page);
  await form.getByLabel('Account name').fill(account.name);
  await form.getByLabel('Service end date').fill(account.endDate);
  await form.getByLabel('Language').selectOption({ label: account.language });
}

export async function fillFirstAdministrator(
  page: Page,
  administrator: FirstAdministratorForm,
): Promise<void> {
  const fieldset = accountForm(page).getByRole('group', { name: 'First administrator' });
  await fieldset.getByLabel('First name').fill(administrator.firstName);
  await fieldset.getByLabel('Last name').fill(administrator.lastName);
  await fieldset.getByLabel('Email').fill(administrator.email);
  await fieldset.getByLabel('Username').fill(administrator.username);
  await fieldset.getByLabel('Password', { exact: true }).fill(administrator.password);
  await fieldset.getByLabel('Repeat password').fill(administrator.password);
}

/** The submit button is named after the page: "Create account" or "Create partner account". */
export async function submitCreate(
  page: Page,
  label: 'Create account' | 'Create partner account',
): Promise<void> {
  await accountForm(page).getByRole('button', { name: label, exact: true }).click();
}

// Details and edit

export async function assertOnAccountDetails(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { name: `Account: ${name}`, level: 1 })).toBeVisible();
  await expect(page).toHaveURL((url) => ACCOUNT_DETAILS_PATH.test(url.pathname));
  await assertAccessible(page);
}

/** A value of the status block under the details title ("Partner account", "Account type"). */
export function accountStatusValue(page: Page, term: string): Locator {
  return page
    .getByLabel('Account status')
    .locator('div')
    .filter({ has: page.getByRole('term').getByText(term, { exact: true }) })
    .getByRole('definition');
}

/** The account's name in its row, which links to its details. */
export async function clickAccountName(page: Page, name: string): Promise<void> {
  await accountRow(page, name).getByRole('link', { name, exact: true }).click();
}

/** The row's own Edit account link, named after its account. */
export async function clickEditAccountOf(page: Page, name: string): Promise<void> {
  await accountRow(page, name)
    .getByRole('link', { name: `Edit account ${name}`, exact: true })
    .click();
}

export async function assertOnEditAccount(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { name: `Edit account: ${name}`, level: 1 })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname.endsWith('/edit'));
  await assertAccessible(page);
}

export async function fillEditAccount(page: Page, change: { name: string; endDate: string }): Promise<void> {
  const form = accountForm(page);
  await form.getByLabel('Account name').fill(change.name);
  await form.getByLabel('Service end date').fill(change.endDate);
}

export async function clickSave(page: Page): Promise<void> {
  await accountForm(page).getByRole('button', { name: 'Save', exact: true }).click();
}

/** The success toast, announced through the notification live region. */
export async function assertSuccessNotice(page: Page, text: string): Promise<void> {
  await expect(page.getByText(text, { exact: true })).toBeVisible();
}

/** Deactivate or Reactivate from the details page's side navigation, confirmed in its dialog. */
export async function changeAccountStatus(page: Page, action: 'Deactivate' | 'Reactivate'): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Account sections' })
    .getByRole('button', { name: new RegExp(`^${action} account`) })
    .click();
  const dialog = page.getByRole('alertdialog', { name: `${action} account` });
  await expect(dialog).toBeVisible();
  await assertAccessible(page);
  await dialog.getByRole('button', { name: `${action} account`, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}
