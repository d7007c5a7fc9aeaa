import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';

/** Certificate authority › Client tools, reached through the main navigation. */
export async function goToClientTools(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Client tools' })
    .click();
  await assertOnClientTools(page);
}

export async function assertOnClientTools(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Client tools', level: 1 })).toBeVisible();
}

/** The operating-system headings in the order the page shows them. */
export function operatingSystemHeadings(page: Page): Locator {
  // The trust agent's panel above the catalogue and the notes on its packages have headings of the same level.
  return page
    .getByRole('heading', { level: 2 })
    .filter({ hasNotText: /^(Trust agent on this computer|Installing the trust assistant)$/ });
}

/** The catalogue's row of one file. */
export function clientToolRow(page: Page, fileName: string): Locator {
  return page.getByRole('row').filter({ hasText: fileName });
}

/** The SHA-256 the row shows. */
export async function shownSha256(row: Locator): Promise<string> {
  return ((await row.locator('code').textContent()) ?? '').trim();
}

/** Moves the focus to the row's download link and presses Enter, answering the bytes saved. */
export async function pressDownload(page: Page, row: Locator): Promise<{ name: string; bytes: Buffer }> {
  const link = row.getByRole('link', { name: /^Download/ });
  await link.focus();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

/** Moves the focus to the row's Copy button and presses Enter. */
export async function pressCopySha256(page: Page, row: Locator): Promise<void> {
  await row.getByRole('button', { name: /^Copy the SHA-256 of / }).focus();
  await page.keyboard.press('Enter');
}
