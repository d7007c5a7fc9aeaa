import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { ensureSetUp } from './support/administrator.ts';
import { mailboxPort } from './support/environment.ts';
import { type Mailbox, startMailbox } from './support/mailbox.ts';
import { type Platform, startPlatform } from './support/platform.ts';

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
 * Playwright's test with its additions: `platform`, the server this worker's stories talk to
 * (e2e/support/platform.ts), set up with its first administrator unless the file asks for a fresh
 * one (`test.use({ freshPlatform: true })`, first-run); `mailbox`, the SMTP server that platform
 * sends its mail to, started once per worker by the stories that read mail; and whatever page a
 * story ends on is checked for accessibility too, so a screen no helper announced is still covered.
 */
export const test = base.extend<object, { freshPlatform: boolean; platform: Platform; mailbox: Mailbox }>({
  freshPlatform: [false, { scope: 'worker', option: true }],
  platform: [
    async ({ freshPlatform, playwright }, use, workerInfo) => {
      const platform = await startPlatform(workerInfo.parallelIndex);
      if (!freshPlatform) {
        const request = await playwright.request.newContext({ baseURL: platform.url });
        await ensureSetUp(request);
        await request.dispose();
      }
      await use(platform);
      await platform.stop();
    },
    { scope: 'worker', auto: true, timeout: 120_000 },
  ],
  mailbox: [
    async ({ platform }, use) => {
      const mailbox = await startMailbox(mailboxPort(platform.port));
      await use(mailbox);
      await mailbox.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ platform }, use) => {
    await use(platform.url);
  },
  page: async ({ page }, use, testInfo) => {
    await use(page);
    const passedSoFar = testInfo.status === testInfo.expectedStatus;
    if (passedSoFar && !page.isClosed() && page.url().startsWith('http')) {
      await test.step('accessibility of the last page', () => assertAccessible(page));
    }
  },
});

export { expect };
