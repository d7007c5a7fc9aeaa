import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { CONSOLE_BASE_PATH } from '../../contract/paths.ts';
import { assertAccessible, expect } from '../fixtures.ts';

export const LOGGING_PATH = `${CONSOLE_BASE_PATH}/reporting/logging`;

/** Reporting › Logging through the main navigation. */
export async function openLoggingFromNavigation(page: Page): Promise<void> {
  const navigation = page.getByRole('navigation', { name: 'Main navigation' });
  await navigation.getByRole('link', { name: 'Reporting', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Reporting', level: 1 })).toBeVisible();
  await assertAccessible(page);
  await page.getByRole('main').getByRole('link', { name: 'Logging', exact: true }).click();
}

function filters(page: Page): Locator {
  return page.getByRole('search', { name: 'Filter audit events' });
}

function eventsTable(page: Page): Locator {
  return page.getByRole('region', { name: 'Audit events table' }).getByRole('table');
}

/** The log once its rows have arrived. */
export async function assertOnLogging(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Logging', level: 1 })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === LOGGING_PATH);
  await expect(eventsTable(page)).toBeVisible();
  await assertAccessible(page);
}

export async function filterLog(page: Page, label: 'Action' | 'Resource type' | 'Account', value: string) {
  await filters(page).getByRole('combobox', { name: label, exact: true }).selectOption({ label: value });
  await expect(page).toHaveURL((url) => url.searchParams.size > 0);
}

/** Every row of the table once the filtered answer arrived, as the text of its cells. */
export async function loggedRows(page: Page): Promise<string[][]> {
  await expect(eventsTable(page)).not.toHaveAttribute('aria-busy', 'true');
  return eventsTable(page)
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.trim() ?? '')),
    );
}

/** Opens the event of the first row by its time. */
export async function openFirstEvent(page: Page): Promise<void> {
  await eventsTable(page).locator('tbody tr').first().getByRole('link').first().click();
  await expect(
    page.getByRole('heading', { name: /^.+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, level: 1 }),
  ).toBeVisible();
  await assertAccessible(page);
}

/** The Before and After cells of one changed field. */
export async function changeOf(page: Page, field: string): Promise<{ before: string; after: string }> {
  const row = page
    .getByRole('table', { name: 'Changed fields, before and after' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: field, exact: true }) });
  const cells = await row.getByRole('cell').allTextContents();
  return { before: cells[0] ?? '', after: cells[1] ?? '' };
}

export async function verifyEvent(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
}

export async function assertIntact(page: Page): Promise<void> {
  await expect(
    page.getByRole('status').filter({ hasText: /^Intact: this event and the \d+ events/ }),
  ).toBeVisible();
  await assertAccessible(page);
}

/** Clicks an export button and answers the downloaded file's name and text. */
export async function exportLog(
  page: Page,
  format: 'CSV' | 'JSON Lines' | 'checkpoints',
): Promise<{ fileName: string; text: string }> {
  const downloaded = page.waitForEvent('download');
  const button = format === 'checkpoints' ? 'Download checkpoints' : `Export ${format}`;
  await page.getByRole('button', { name: button }).click();
  const download = await downloaded;
  const failure = await download.failure();
  if (failure) throw new Error(`The export failed to download: ${failure}`);
  return { fileName: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}
