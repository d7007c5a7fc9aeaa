import type { Page } from '@playwright/test';
import { expect } from '../fixtures.ts';

/** The notice of a screen drawn from the copy the console keeps for offline use. */
export async function assertOfflineNotice(page: Page): Promise<void> {
  await expect(
    page.getByText(/^Offline — data as of .+\. Changes you make are sent when the connection returns\.$/),
  ).toBeVisible();
}
