import type { Page } from '@playwright/test';
import { SETUP_LICENCE_PATH } from '../../contract/paths.ts';
import { assertAccessible, expect } from '../fixtures.ts';

export interface AdministratorForm {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
  repeatedPassword: string;
}

export async function goToSetupLicence(page: Page): Promise<void> {
  await page.goto(SETUP_LICENCE_PATH);
}

export async function assertOnSetupLicence(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Set up the licence' })).toBeVisible();
  await assertAccessible(page);
}

export async function fillLicenceText(page: Page, licence: string): Promise<void> {
  await page.getByLabel('Licence text').fill(licence);
}

export async function clickContinue(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Continue' }).click();
}

export async function assertOnSetupUser(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Create the first administrator' })).toBeVisible();
  await assertAccessible(page);
}

export async function fillAdministrator(page: Page, form: AdministratorForm): Promise<void> {
  await page.getByLabel('First name').fill(form.firstName);
  await page.getByLabel('Last name').fill(form.lastName);
  await page.getByLabel('Email').fill(form.email);
  await page.getByLabel('Username').fill(form.username);
  await page.getByLabel('Password', { exact: true }).fill(form.password);
  await page.getByLabel('Repeat password').fill(form.repeatedPassword);
}

export async function clickCreateAdministrator(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Create administrator' }).click();
}

/** The field is marked invalid and its error message is announced with it, not only shown nearby. */
export async function assertFieldError(page: Page, label: string, message: RegExp): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(message);
  await assertAccessible(page);
}

export async function assertSetupComplete(page: Page): Promise<void> {
  await goToSetupLicence(page);
  await expect(page).not.toHaveURL(new RegExp(SETUP_LICENCE_PATH));
  await expect(page.getByRole('heading', { name: 'Set up the licence' })).toHaveCount(0);
}
