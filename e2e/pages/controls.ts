import { expect, type Locator } from '@playwright/test';

/**
 * Ticks or clears one of the console's checkboxes as a person does, by clicking it. The shared
 * checkbox (`components/ui/checkbox.tsx`) draws its own box around a visually hidden native input,
 * which Playwright's `check()` will not act on; its label, the control's root, takes the click.
 */
export async function setChecked(box: Locator, checked: boolean): Promise<void> {
  if ((await box.isChecked()) !== checked) await box.locator('xpath=ancestor::label[1]').click();
  if (checked) await expect(box).toBeChecked();
  else await expect(box).not.toBeChecked();
}
