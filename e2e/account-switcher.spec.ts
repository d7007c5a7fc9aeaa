import { expect, test } from './fixtures.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { signIn } from './pages/sign-in.ts';
import {
  countActiveAccountsThroughApi,
  createAccountThroughApi,
  dateInDays,
  signInThroughApi,
} from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';

/** Above this many active accounts the header's switcher searches instead of listing them all. */
const MENU_LIMIT = 50;
/** A slow laptop: keystrokes must not be lost while the page renders between them. */
const CPU_SLOWDOWN = 6;

const RUN = Date.now().toString(36);
const TARGET = `Switchboard ${RUN}`;

test('above 50 accounts the switcher searches by name, keeps every key typed at full speed on a slow CPU, and switches', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);

  await test.step('the platform has more active accounts than the menu shows, one of them the target', async () => {
    const token = await signInThroughApi(request, ADMINISTRATOR);
    const total = await countActiveAccountsThroughApi(request, token);
    const names = [
      TARGET,
      ...Array.from({ length: Math.max(0, MENU_LIMIT - total) }, (_, index) => `Filler ${RUN} ${index}`),
    ];
    for (const [index, name] of names.entries()) {
      await createAccountThroughApi(request, token, {
        name,
        locale: 'en_US',
        type: 'standard',
        // Far from any expiry window that other scenarios count.
        service_period: { to: dateInDays(730) },
        administrator: {
          first_name: 'Switch',
          last_name: `Board ${index}`,
          email: `switch-${RUN}-${index}@example.com`,
          user_name: `switch-${RUN}-${index}`,
          password: 'Switch-Board-2026!x',
          repeatedPassword: 'Switch-Board-2026!x',
        },
      });
    }
  });

  await test.step('the administrator signs in; the header offers a search, not a menu', async () => {
    await signIn(page, ADMINISTRATOR);
    await assertOnAccounts(page);
    await expect(page.getByRole('combobox', { name: 'Switch account' })).toBeVisible();
  });

  await test.step('typed with no pause on a slowed CPU, every key stays and the account is found', async () => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const search = page.getByRole('combobox', { name: 'Switch account' });
    await search.click();
    await search.pressSequentially(TARGET, { delay: 0 });
    await expect(search).toHaveValue(TARGET);
    const option = page.getByRole('option', { name: TARGET });
    await expect(option).toBeVisible({ timeout: 20_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await option.click();
  });

  await test.step('the console works in the chosen account', async () => {
    await expect(page.getByRole('banner').getByText(TARGET)).toBeVisible();
  });
});
