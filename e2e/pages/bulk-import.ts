import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { CONSOLE_BASE_PATH } from '../../contract/paths.ts';
import { assertAccessible, expect } from '../fixtures.ts';

/** Access › Administrators › Bulk create (decision 039 §4). */
export const BULK_CREATE_PATH = `${CONSOLE_BASE_PATH}/access/administrators/bulk-user-create`;

export async function openBulkCreate(page: Page): Promise<void> {
  await page.goto(BULK_CREATE_PATH);
  await assertOnFileStep(page);
}

export async function assertOnFileStep(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Bulk create administrators', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check the file' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Send invitations' })).toBeChecked();
  await assertAccessible(page);
}

/** Searches the account by name in the account chooser and takes it. */
export async function chooseAccount(page: Page, name: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Choose another account' }).fill(name);
  await page.getByRole('option', { name }).click();
  await expect(page.getByText(`Account: ${name}`)).toBeVisible();
}

export async function tickDefaultRole(page: Page, role: string): Promise<void> {
  await page.getByRole('group', { name: 'Default roles' }).getByRole('checkbox', { name: role }).check();
}

/** Gives the file to the page as a browser's file chooser would. */
export async function chooseFile(page: Page, name: string, text: string): Promise<void> {
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
  await expect(page.getByText(name)).toBeVisible();
}

export async function checkFile(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Check the file' }).click();
  await expect(page).toHaveURL((url) => url.searchParams.has('job') && url.hash === '#step=2');
}

export function rowsTable(page: Page) {
  return page.getByRole('region', { name: 'Rows of the file' }).getByRole('table');
}

export async function showInvalidRows(page: Page): Promise<void> {
  // The radio shows what the address says: it turns checked once the click has navigated, which
  // `check()`, looking at once, can miss on a busy machine.
  const invalid = page.getByRole('radio', { name: 'Invalid rows' });
  await invalid.click();
  await expect(page).toHaveURL((url) => url.searchParams.get('rows') === 'invalid');
  await expect(invalid).toBeChecked();
}

export async function startCreating(page: Page, count: number): Promise<void> {
  await page.getByRole('button', { name: `Create ${count} users` }).click();
  await expect(page).toHaveURL((url) => url.hash === '#step=3');
}

/** Waits for the job to end and answers what the live region says. */
export async function waitUntilFinished(page: Page): Promise<string> {
  const status = page.getByRole('status').filter({ hasText: /^Finished:/ });
  await expect(status).toBeVisible({ timeout: 60_000 });
  await assertAccessible(page);
  return (await status.textContent()) ?? '';
}

export async function downloadReport(page: Page): Promise<{ fileName: string; text: string }> {
  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download report' }).click();
  const download = await downloaded;
  const failure = await download.failure();
  if (failure) throw new Error(`The report failed to download: ${failure}`);
  return { fileName: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}
