import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import { assertAccessible } from '../fixtures.ts';

/*
 * The licences of an account on its details page: a card per application, the edit dialog, the
 * history rail and its file.
 */

export function licenceCard(page: Page, application: string): Locator {
  return page.getByRole('region', { name: 'Licences' }).getByRole('article', { name: application });
}

/** A licence type's figures in its card: remaining, total allocated, used. */
export async function assertLicenceFigures(
  page: Page,
  application: string,
  type: string,
  figures: { remaining: string; total: string; used: string },
): Promise<void> {
  const row = licenceCard(page, application).getByRole('row', { name: new RegExp(`^${type}`) });
  await expect(row.getByRole('cell')).toHaveText([figures.remaining, figures.total, figures.used]);
}

export function licenceDialog(page: Page, application: string): Locator {
  return page.getByRole('dialog', { name: `Edit ${application} licences` });
}

export async function openLicenceEdit(page: Page, application: string): Promise<Locator> {
  await licenceCard(page, application)
    .getByRole('button', { name: `Edit ${application} licences` })
    .click();
  const dialog = licenceDialog(page, application);
  await expect(dialog).toBeVisible();
  await assertAccessible(page);
  return dialog;
}

function typeGroup(dialog: Locator, type: string): Locator {
  return dialog.getByRole('group', { name: type });
}

/** The options a licence type offers, by their labels. */
export async function assertLicenceOptions(dialog: Locator, type: string, options: string[]): Promise<void> {
  await expect(typeGroup(dialog, type).getByRole('radio')).toHaveCount(options.length);
  for (const option of options)
    await expect(typeGroup(dialog, type).getByRole('radio', { name: option })).toBeVisible();
}

/** Chooses an option of a licence type and types its quantity, by keyboard as a user would. */
export async function chooseLicenceChange(
  dialog: Locator,
  type: string,
  option: 'Add' | 'Subtract' | 'Reset to',
  quantity: string,
): Promise<void> {
  await typeGroup(dialog, type).getByRole('radio', { name: option }).check();
  const input = typeGroup(dialog, type).getByRole('textbox', { name: `Quantity of ${type}` });
  await expect(input).toBeFocused();
  await input.fill(quantity);
}

export async function assertQuantityError(dialog: Locator, type: string, text: string): Promise<void> {
  await expect(typeGroup(dialog, type).getByText(text, { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Update' })).toBeDisabled();
}

/** Update, its notice, and the view back once the dialog has closed (J-27, J-31). */
export async function updateLicences(page: Page, dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Update' }).click();
  const notice = page.getByText('Licence updated.', { exact: true });
  await expect(notice).toBeVisible();
  await expect(dialog).toBeHidden();
  // Dismissed, so that the next change's notice is the only one.
  await notice.locator('..').getByRole('button').click();
  await expect(notice).toBeHidden();
}

export function historyRail(page: Page, accountName: string): Locator {
  return page.getByRole('complementary', { name: `${accountName} licence history` });
}

/** The rail's entries, in order, as their text reads. */
export async function assertHistoryEntries(
  page: Page,
  accountName: string,
  entries: RegExp[],
): Promise<void> {
  await expect(historyRail(page, accountName).getByRole('listitem')).toHaveText(entries);
}

export async function downloadHistory(
  page: Page,
  accountName: string,
): Promise<{ fileName: string; text: string }> {
  const downloaded = page.waitForEvent('download');
  await historyRail(page, accountName).getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloaded;
  const failure = await download.failure();
  if (failure) throw new Error(`The history failed to download: ${failure}`);
  return { fileName: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}
