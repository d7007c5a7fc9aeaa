import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { mailboxPort, serverPort } from './support/environment.ts';
import { type Mailbox, startMailbox } from './support/mailbox.ts';

/** WCAG 2.1 A and AA, the level the console is built to. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe on the page once its tables have loaded and fails on serious or critical violations,
 * listing each rule, its impact and the elements it found, then checks that the page fits the
 * window's width. Page helpers call it once their screen has rendered.
 */
export async function assertAccessible(page: Page): Promise<void> {
  // A table keeps the previous rows dimmed while the next filter, sort or page loads (list.css), and
  // axe would measure the dimmed text's contrast: the check waits for the screen at rest.
  await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0);
  await assertNoSidewaysScroll(page);
  // Legacy mode runs axe.run in the page itself. The default runs axe in every frame and merges the
  // results in a blank page opened for each check, which doubled the check's time (about 0.8 s
  // against 0.4 s per check, and the checks were half of the scenarios' time); it exists for
  // cross-origin frames, and the console has no frames.
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).setLegacyMode().analyze();
  const blocking = results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''));
  const report = blocking.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.help}\n` +
      violation.nodes.map((node) => `    ${node.target.join(' ')}`).join('\n'),
  );
  expect(report, `accessibility violations on ${new URL(page.url()).pathname}`).toEqual([]);
}

/**
 * The page does not scroll sideways: wide content (a table with many columns, a long unbroken name)
 * scrolls inside its own frame, wraps or is cut short, so nothing a user needs sits off-screen at the
 * laptop width the scenarios run at (playwright.config.ts).
 */
async function assertNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(
    scrollWidth,
    `the page at ${new URL(page.url()).pathname} is wider than the window (${clientWidth} px)`,
  ).toBeLessThanOrEqual(clientWidth);
}

/**
 * Playwright's test with two additions: whatever page a scenario ends on is checked for accessibility
 * too, so a screen no helper announced is still covered; and `mailbox`, the SMTP server the e2e server
 * sends its mail to (playwright.config.ts), started once per worker by the scenarios that read mail.
 */
export const test = base.extend<object, { mailbox: Mailbox }>({
  mailbox: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads which fixtures a fixture uses from this pattern; it uses none.
    async ({}, use) => {
      const mailbox = await startMailbox(mailboxPort(serverPort()));
      await use(mailbox);
      await mailbox.close();
    },
    { scope: 'worker' },
  ],
  page: async ({ page }, use, testInfo) => {
    await use(page);
    const passedSoFar = testInfo.status === testInfo.expectedStatus;
    if (passedSoFar && !page.isClosed() && page.url().startsWith('http')) {
      await test.step('accessibility of the last page', () => assertAccessible(page));
    }
  },
});

export { expect };
