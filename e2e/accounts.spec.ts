import { assertAccessible, expect, test } from './fixtures.ts';
import {
  accountRow,
  accountStatusValue,
  assertAccountExpiredNotice,
  assertAccountsListed,
  assertEndsWithinFilter,
  assertNoAccountsMatch,
  assertNoExpiryBanners,
  assertOnAccountDetails,
  assertOnCreateAccount,
  assertOnCreatePartnerAccount,
  assertOnEditAccount,
  assertSingleCreateAccountAction,
  assertSuccessNotice,
  cellOf,
  changeAccountStatus,
  clickCreateAccount,
  clickCreatePartnerAccount,
  clickEditAccountOf,
  clickExpiryBanner,
  clickSave,
  expiryBannerCount,
  exportCsv,
  fillAccount,
  fillEditAccount,
  fillFirstAdministrator,
  filterByName,
  goToAccountDetails,
  goToAccounts,
  listTotal,
  submitCreate,
} from './pages/accounts.ts';
import { assertOnAccounts, clickSignOut, clickUserMenu } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR, ADMINISTRATOR_DISPLAY_NAME } from './support/administrator.ts';
import { parseTenantCsv } from './support/csv.ts';

/** Names unique to this run, so a scenario repeated on the same server finds only its own accounts. */
const run = Date.now().toString(36);

const PARTNER = {
  name: `Harbour Partner ${run}`,
  endDate: dateInDays(20),
  language: 'English (US)',
} as const;

const PARTNER_ADMINISTRATOR = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: `grace.${run}@example.com`,
  username: `grace-${run}`,
  password: 'Partner-Admin-2026!x',
} as const;
const PARTNER_ADMINISTRATOR_DISPLAY_NAME = `${PARTNER_ADMINISTRATOR.firstName} ${PARTNER_ADMINISTRATOR.lastName}`;

const CUSTOMER = {
  name: `Quay Customer ${run}`,
  endDate: dateInDays(90),
  language: 'Deutsch',
} as const;

const CUSTOMER_RENAMED = { name: `Quay Customer Renamed ${run}`, endDate: dateInDays(120) } as const;

/** Accounts the system creates directly under the platform: one ends soon, one much later. */
const DIRECT_SOON = { name: `Direct Soon ${run}`, endDate: dateInDays(10) } as const;
const DIRECT_LATER = { name: `Direct Later ${run}`, endDate: dateInDays(200) } as const;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const token = await signInThroughApi(request, {
    username: ADMINISTRATOR.username,
    password: ADMINISTRATOR.password,
  });
  for (const [index, account] of [DIRECT_SOON, DIRECT_LATER].entries()) {
    await createAccountThroughApi(request, token, {
      name: account.name,
      locale: 'en_US',
      type: 'standard',
      service_period: { to: account.endDate },
      administrator: {
        first_name: 'Direct',
        last_name: `Administrator ${index + 1}`,
        email: `direct-${index + 1}.${run}@example.com`,
        user_name: `direct-${index + 1}-${run}`,
        password: 'Direct-Admin-2026!x',
        repeatedPassword: 'Direct-Admin-2026!x',
      },
    });
  }
});

test('a system administrator creates a partner, whose administrator creates and edits an account under it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  let partnerFriendlyIdentifier = '';

  await test.step('the system administrator signs in', async () => {
    await goToSignIn(page);
    await assertOnSignIn(page);
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
  });

  await test.step('the system administrator creates a partner account with its first administrator', async () => {
    await clickCreatePartnerAccount(page);
    await assertOnCreatePartnerAccount(page);
    await fillAccount(page, PARTNER);
    await fillFirstAdministrator(page, PARTNER_ADMINISTRATOR);
    await submitCreate(page, 'Create partner account');
    await assertOnAccountDetails(page, PARTNER.name);
    await expect(accountStatusValue(page, 'Account type')).toHaveText('Partner');
  });

  await test.step('the 30-day banner shows the accounts that end within 30 days', async () => {
    await goToAccounts(page);
    await assertAccountsListed(page);
    const expiring = await expiryBannerCount(page, 30);
    expect(expiring).toBeGreaterThanOrEqual(2);

    await clickExpiryBanner(page, 30);
    await assertEndsWithinFilter(page, 30);
    await expect(accountRow(page, DIRECT_LATER.name)).toHaveCount(0);
    await expect(accountRow(page, PARTNER.name)).toBeVisible();
    await expect(accountRow(page, DIRECT_SOON.name)).toBeVisible();
    expect(await listTotal(page)).toBe(expiring);
    await assertAccountsListed(page);

    const partnerRow = accountRow(page, PARTNER.name);
    await expect(await cellOf(page, partnerRow, 'Status')).toHaveText('Active');
    await expect(await cellOf(page, partnerRow, 'Type')).toHaveText('Partner');
    partnerFriendlyIdentifier = (
      (await (await cellOf(page, partnerRow, 'Friendly identifier')).textContent()) ?? ''
    ).trim();
    expect(partnerFriendlyIdentifier).not.toBe('');
  });

  await test.step('the export holds every filtered account, the partner among them', async () => {
    const total = await listTotal(page);
    const { fileName, text } = await exportCsv(page);
    expect(fileName).toMatch(/^accounts-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(text.endsWith('\r\n'), 'records end in CRLF').toBe(true);
    // Read by the contract's columns: a header in another order or a short record fails here.
    const rows = parseTenantCsv(text);
    expect(rows).toHaveLength(total);

    const partnerRows = rows.filter((row) => row.name === PARTNER.name);
    expect(partnerRows).toHaveLength(1);
    const [partnerRow] = partnerRows;
    expect(partnerRow?.friendly_identifier).toBe(partnerFriendlyIdentifier);
    expect(partnerRow?.status).toBe('active');
    expect(partnerRow?.type).toBe('partner');
    expect(partnerRow?.end_date).toBe(PARTNER.endDate);
    expect(partnerRow?.partner_account_name).toBe('');
    expect(rows.map((row) => row.name)).not.toContain(DIRECT_LATER.name);
  });

  await test.step('the system administrator signs out', async () => {
    await clickUserMenu(page, ADMINISTRATOR_DISPLAY_NAME);
    await clickSignOut(page);
    await assertOnSignIn(page);
  });

  await test.step('the partner administrator signs in and sees no expiry banners', async () => {
    await fillSignInSteps(page, PARTNER_ADMINISTRATOR);
    await assertOnAccounts(page);
    await expect(page.getByRole('button', { name: PARTNER_ADMINISTRATOR_DISPLAY_NAME })).toBeVisible();
    await assertAccountsListed(page);
    await expect(accountRow(page, PARTNER.name)).toBeVisible();
    await assertNoExpiryBanners(page);
  });

  await test.step('the partner administrator creates an account under the partner', async () => {
    await assertSingleCreateAccountAction(page);
    await clickCreateAccount(page);
    await assertOnCreateAccount(page);
    await expect(page.getByText('The new account is created under your partner account.')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Partner' })).toHaveCount(0);
    await fillAccount(page, CUSTOMER);
    await fillFirstAdministrator(page, {
      firstName: 'Katherine',
      lastName: 'Johnson',
      email: `katherine.${run}@example.com`,
      username: `katherine-${run}`,
      password: 'Customer-Admin-2026!x',
    });
    await submitCreate(page, 'Create account');
    await assertSuccessNotice(page, 'Account created.');
    await assertOnAccountDetails(page, CUSTOMER.name);
    await expect(accountStatusValue(page, 'Partner account')).toHaveText(PARTNER.name);
  });

  await test.step('the list shows the new account with its partner', async () => {
    await goToAccounts(page);
    await assertAccountsListed(page);
    const row = accountRow(page, CUSTOMER.name);
    await expect(row).toBeVisible();
    await expect(await cellOf(page, row, 'Partner account')).toHaveText(PARTNER.name);
    await expect(await cellOf(page, row, 'Type')).toHaveText('Standard');
  });

  await test.step('the partner administrator renames the account and moves its end date', async () => {
    await clickEditAccountOf(page, CUSTOMER.name);
    await assertOnEditAccount(page, CUSTOMER.name);
    await fillEditAccount(page, CUSTOMER_RENAMED);
    await clickSave(page);
    await assertSuccessNotice(page, 'Account edited.');
    await assertOnAccountDetails(page, CUSTOMER_RENAMED.name);
  });

  await test.step('accounts created directly under the platform are out of the partner’s sight', async () => {
    await goToAccounts(page);
    await assertAccountsListed(page);
    await expect(accountRow(page, CUSTOMER_RENAMED.name)).toBeVisible();
    await expect(accountRow(page, CUSTOMER.name)).toHaveCount(0);
    await filterByName(page, DIRECT_SOON.name);
    await assertNoAccountsMatch(page);
    await assertNoExpiryBanners(page);
  });
});

test('deactivating an account signs its users out at once, and reactivating it makes it active again', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const member = { username: `ada-${run}`, password: 'Member-Admin-2026!x' } as const;
  const token = await signInThroughApi(request, {
    username: ADMINISTRATOR.username,
    password: ADMINISTRATOR.password,
  });
  const account = await createAccountThroughApi(request, token, {
    name: `Dormant ${run}`,
    locale: 'en_US',
    type: 'standard',
    service_period: { to: dateInDays(150) },
    administrator: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: `ada.${run}@example.com`,
      user_name: member.username,
      password: member.password,
      repeatedPassword: member.password,
    },
  });
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();

  await test.step('a user of the account signs in', async () => {
    await goToSignIn(memberPage);
    await fillSignInSteps(memberPage, member);
    await expect(memberPage.getByRole('button', { name: 'Ada Lovelace' })).toBeVisible();
  });

  await test.step('the system administrator deactivates the account from its details page', async () => {
    await goToSignIn(page);
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
    await goToAccountDetails(page, account.id);
    await assertOnAccountDetails(page, account.name);
    await changeAccountStatus(page, 'Deactivate');
    await assertSuccessNotice(page, 'Account deactivated.');
    await expect(accountStatusValue(page, 'Status')).toHaveText('Inactive');
  });

  await test.step('the account’s user has lost the session', async () => {
    await memberPage.reload();
    await assertOnSignIn(memberPage);
  });

  await test.step('signing in again, the user is told the account expired and is offered nothing to manage', async () => {
    await fillSignInSteps(memberPage, member);
    await assertAccountExpiredNotice(memberPage);
    await expect(memberPage.getByRole('link', { name: 'Accounts', exact: true })).toHaveCount(0);
    await assertAccessible(memberPage);
  });

  await test.step('the administrator reactivates the account', async () => {
    await changeAccountStatus(page, 'Reactivate');
    await assertSuccessNotice(page, 'Account reactivated.');
    await expect(accountStatusValue(page, 'Status')).toHaveText('Active');
  });
  await memberContext.close();
});
