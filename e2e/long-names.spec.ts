import type { Page, TestInfo } from '@playwright/test';
import { ACCOUNT_NAME_MAX_LENGTH, ADDRESS_LINE_MAX_LENGTH } from '../contract/validation.ts';
import { expect, test } from './fixtures.ts';
import {
  accountRow,
  assertAccountsListed,
  assertOnAccountDetails,
  assertOnEditAccount,
  clickAccountName,
  clickEditAccountOf,
  filterByName,
  goToAccounts,
} from './pages/accounts.ts';
import {
  assertOnEditOrganization,
  assertOnOrganization,
  assertOrganizationsListed,
  clickEditOrganization,
  clickOrganizationName,
  goToOrganizations,
  organizationRow,
} from './pages/organizations.ts';
import { assertOnAccounts, chooseTheme, clickSignOut, clickUserMenu } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR, ADMINISTRATOR_DISPLAY_NAME } from './support/administrator.ts';
import { createOrganizationThroughApi } from './support/organizations-api.ts';

/** Names unique to this run, so a scenario repeated on the same server finds only its own objects. */
const run = Date.now().toString(36);

/** A name of `length` characters without a space or hyphen to break at; W is among the widest letters. */
function unbrokenName(prefix: string, length: number): string {
  return `${prefix}${run}`.padEnd(length, 'W');
}

/** The longest names the contract accepts: 256 characters for an account, 255 for an organization. */
const ACCOUNT_NAME = unbrokenName('Account', ACCOUNT_NAME_MAX_LENGTH);
const ORGANIZATION_NAME = unbrokenName('Organization', ADDRESS_LINE_MAX_LENGTH);

/** The account's first administrator, whose header names the account. */
const ACCOUNT_ADMINISTRATOR = { username: `long-names-${run}`, password: 'Long-Names-2026!x' } as const;

let accountId = '';

test.beforeAll(async ({ request }) => {
  const token = await signInThroughApi(request, ADMINISTRATOR);
  const account = await createAccountThroughApi(request, token, {
    name: ACCOUNT_NAME,
    locale: 'en_US',
    type: 'standard',
    service_period: { to: dateInDays(365) },
    administrator: {
      first_name: 'Long',
      last_name: `Names ${run}`,
      email: `long-names.${run}@example.com`,
      user_name: ACCOUNT_ADMINISTRATOR.username,
      password: ACCOUNT_ADMINISTRATOR.password,
      repeatedPassword: ACCOUNT_ADMINISTRATOR.password,
    },
  });
  accountId = account.id;
  await createOrganizationThroughApi(request, token, accountId, {
    name: ORGANIZATION_NAME,
    address: '1 Quay Street',
    city: 'Harbourtown',
    country: 'DE',
  });
});

/** A full-page picture of the screen, kept with the test's results for a person to look at. */
async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const body = await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
}

for (const theme of ['Light', 'Dark'] as const) {
  test(`an account and an organization with the longest unbroken names fit the screen in the ${theme.toLowerCase()} theme`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    const shot = (screen: string) => screenshot(page, testInfo, `${theme.toLowerCase()}-${screen}`);

    await test.step('the administrator signs in and chooses the theme', async () => {
      await goToSignIn(page);
      await assertOnSignIn(page);
      await fillSignInSteps(page, ADMINISTRATOR);
      await assertOnAccounts(page);
      await chooseTheme(page, theme);
    });

    await test.step('the accounts list cuts the name short and keeps all of it in the title', async () => {
      await goToAccounts(page);
      await filterByName(page, ACCOUNT_NAME);
      await expect(accountRow(page, ACCOUNT_NAME)).toBeVisible();
      await assertAccountsListed(page);
      await expect(
        accountRow(page, ACCOUNT_NAME)
          .getByRole('link', { name: ACCOUNT_NAME, exact: true })
          .getByTitle(ACCOUNT_NAME, { exact: true }),
      ).toBeVisible();
      await expect(
        accountRow(page, ACCOUNT_NAME).getByRole('link', { name: /^Edit account/ }),
      ).toBeInViewport();
      await shot('accounts-list');
    });

    await test.step('the account’s details wrap the name in the title', async () => {
      await clickAccountName(page, ACCOUNT_NAME);
      await assertOnAccountDetails(page, ACCOUNT_NAME);
      await shot('account-details');
    });

    await test.step('the account’s edit page wraps the name in the title and holds it in the field', async () => {
      await goToAccounts(page);
      await clickEditAccountOf(page, ACCOUNT_NAME);
      await assertOnEditAccount(page, ACCOUNT_NAME);
      await expect(page.getByRole('form').getByLabel('Account name')).toHaveValue(ACCOUNT_NAME);
      await shot('account-edit');
    });

    await test.step('the account’s organizations list cuts the organization’s name short', async () => {
      await goToOrganizations(page, { accountId, name: ORGANIZATION_NAME });
      await assertOrganizationsListed(page);
      await expect(
        organizationRow(page, ORGANIZATION_NAME)
          .getByRole('link', { name: ORGANIZATION_NAME, exact: true })
          .getByTitle(ORGANIZATION_NAME, { exact: true }),
      ).toBeVisible();
      await shot('organizations-list');
    });

    await test.step('the organization’s page and its edit page wrap the name', async () => {
      await clickOrganizationName(page, ORGANIZATION_NAME);
      await assertOnOrganization(page, ORGANIZATION_NAME);
      await shot('organization-details');
      await clickEditOrganization(page);
      await assertOnEditOrganization(page, ORGANIZATION_NAME);
      await shot('organization-edit');
    });

    await test.step('the administrator signs out', async () => {
      await clickUserMenu(page, ADMINISTRATOR_DISPLAY_NAME);
      await clickSignOut(page);
      await assertOnSignIn(page);
    });

    await test.step('the account’s own administrator sees its name cut short in the header', async () => {
      await fillSignInSteps(page, ACCOUNT_ADMINISTRATOR);
      await assertOnAccounts(page);
      await expect(page.getByRole('banner').getByTitle(ACCOUNT_NAME, { exact: true })).toBeVisible();
      await shot('header');
    });
  });
}
