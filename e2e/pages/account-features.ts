import type { Locator, Page } from '@playwright/test';
import { assertAccessible, expect } from '../fixtures.ts';
import { setChecked } from './controls.ts';

/** The Features section of an account's details page. */
export function featuresSection(page: Page): Locator {
  return page.getByRole('region', { name: 'Features' });
}

/** A feature's switch, by the feature's name ("Trial account", "Public issuance"). */
export function featureSwitch(page: Page, name: string): Locator {
  return featuresSection(page).getByRole('switch', { name, exact: true });
}

/** The section once its switches have arrived, checked for accessibility. */
export async function assertFeaturesShown(page: Page): Promise<void> {
  await expect(featureSwitch(page, 'Public issuance')).toBeVisible();
  await assertAccessible(page);
}

export async function setFeature(page: Page, name: string, on: boolean): Promise<void> {
  await setChecked(featureSwitch(page, name), on);
}

export async function fillTrialEndDate(page: Page, date: string): Promise<void> {
  await featuresSection(page).getByLabel('Trial end date').fill(date);
}

export async function saveFeatures(page: Page): Promise<void> {
  await featuresSection(page).getByRole('button', { name: 'Save features' }).click();
}

/** Saves, waits for the server to take the change, and sees the success notice (K-16). */
export async function saveFeaturesSuccessfully(page: Page): Promise<void> {
  // A save that leaves as the token expires is refused with 401, and the console renews the token
  // and sends it again (B-22 renews at the expiry itself): the answer that counts is the next one.
  const saved = page.waitForResponse(
    (response) =>
      response.request().method() === 'PUT' &&
      response.url().includes('/features/account/') &&
      response.status() !== 401,
  );
  await saveFeatures(page);
  expect((await saved).status()).toBe(204);
  // An earlier save's notice may still be showing beside this one.
  await expect(page.getByText('Features saved.', { exact: true }).last()).toBeVisible();
}

/** The error a control of the section shows, through its aria-describedby. */
export async function assertFeatureError(control: Locator, text: string): Promise<void> {
  await expect(control).toHaveAttribute('aria-invalid', 'true');
  await expect(control).toHaveAccessibleDescription(text);
}

export function trialEndDate(page: Page): Locator {
  return featuresSection(page).getByLabel('Trial end date');
}
