import { assertAccessible, expect, test } from './fixtures.ts';
import {
  administratorRow,
  assertAdministratorsListed,
  assertNotice,
  assertOnAdministratorDetails,
  assertOnWizardStep,
  choosePrimaryAccount,
  chooseRole,
  chooseRowAction,
  clickCreate,
  clickCreateAdministrator,
  clickWizardNext,
  deleteSelected,
  fillIdentity,
  openAdministratorsFromNavigation,
  search,
  selectRow,
} from './pages/administrators.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { linkIn } from './support/mailbox.ts';

/** Names unique to this run, so a scenario repeated on the same server finds only its own people. */
const run = Date.now().toString(36);
const ACCOUNT = `Harbour ${run}`;
const NEW_ADMINISTRATOR = {
  firstName: 'Grace',
  lastName: `Harbour ${run}`,
  email: `grace-${run}@example.com`,
  userName: `grace-${run}`,
};
const NEW_NAME = `${NEW_ADMINISTRATOR.firstName} ${NEW_ADMINISTRATOR.lastName}`;
const NEW_PASSWORD = 'Harbour-Pilot-2026!x';
const ACCOUNT_ADMINISTRATOR_NAME = `Hedy Harbour ${run}`;

test.beforeAll(async ({ request }) => {
  const token = await signInThroughApi(request, {
    username: ADMINISTRATOR.username,
    password: ADMINISTRATOR.password,
  });
  await createAccountThroughApi(request, token, {
    name: ACCOUNT,
    locale: 'en_US',
    type: 'standard',
    service_period: { to: dateInDays(60) },
    administrator: {
      first_name: 'Hedy',
      last_name: `Harbour ${run}`,
      email: `hedy-${run}@example.com`,
      user_name: `hedy-${run}`,
      password: 'Harbour-Admin-2026!x',
      repeatedPassword: 'Harbour-Admin-2026!x',
    },
  });
});

test('the system administrator creates an administrator who signs in from the invitation, then edits, disables, enables and deletes administrators', async ({
  page,
  browser,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(180_000);

  await test.step('the system administrator opens the create wizard from Access › Administrators', async () => {
    await goToSignIn(page);
    await assertOnSignIn(page);
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
    await openAdministratorsFromNavigation(page);
    await assertAdministratorsListed(page);
    await clickCreateAdministrator(page);
    await assertOnWizardStep(page, 1);
  });

  await test.step('identity, account and a role, one step at a time', async () => {
    await fillIdentity(page, NEW_ADMINISTRATOR);
    await clickWizardNext(page);
    await assertOnWizardStep(page, 2);
    await choosePrimaryAccount(page, ACCOUNT);
    await expect(page.getByText('Scope of the new administrator: Account')).toBeVisible();
    await clickWizardNext(page);
    await assertOnWizardStep(page, 3);
    await chooseRole(page, 'Account administrator');
    await clickWizardNext(page);
    await assertOnWizardStep(page, 4);
    await expect(page.getByText(NEW_ADMINISTRATOR.email, { exact: true })).toBeVisible();
  });

  await test.step('Create shows the notice and the new administrator, pending', async () => {
    await clickCreate(page);
    await assertNotice(page, `Administrator created. An invitation was sent to ${NEW_ADMINISTRATOR.email}.`);
    await assertOnAdministratorDetails(page, NEW_NAME);
    await expect(page.getByText('Pending', { exact: true })).toBeVisible();
  });

  await test.step('the invitation arrives; the new administrator sets a password and signs in', async () => {
    const mail = await mailbox.waitForMail(NEW_ADMINISTRATOR.email, (message) =>
      (message.text ?? '').includes('/verify/'),
    );
    const link = linkIn(mail);
    // A browser of their own: the system administrator stays signed in on the first one.
    const context = await browser.newContext({ baseURL });
    const invited = await context.newPage();
    await invited.goto(`${link.pathname}${link.search}`);
    await expect(invited.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
    await assertAccessible(invited);
    await expect(invited.getByLabel('Username')).toHaveValue(NEW_ADMINISTRATOR.userName);
    await invited.getByLabel('New password').fill(NEW_PASSWORD);
    await invited.getByLabel('Repeat password').fill(NEW_PASSWORD);
    await invited.getByRole('button', { name: 'Set password' }).click();
    await expect(invited.getByRole('heading', { name: 'Your account is ready' })).toBeVisible();
    await invited.getByRole('link', { name: 'Go to sign-in' }).click();
    await fillSignInSteps(invited, { username: NEW_ADMINISTRATOR.userName, password: NEW_PASSWORD });
    await expect(invited.getByRole('button', { name: NEW_NAME })).toBeVisible();
    await assertAccessible(invited);
    await context.close();
  });

  await test.step('Edit roles keeps the role and shows the permission-edited notice', async () => {
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit roles', exact: true }).click();
    await expect(page.getByRole('heading', { name: `Edit roles: ${NEW_NAME}`, level: 1 })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: /^Account administrator/ })).toBeChecked();
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await assertNotice(page, 'Permissions edited.');
    await assertOnAdministratorDetails(page, NEW_NAME);
  });

  await test.step('Edit changes the phone, then keeps accounts and roles, with the notice', async () => {
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(
      page.getByRole('heading', { name: `Edit administrator: ${NEW_NAME}`, level: 1 }),
    ).toBeVisible();
    await assertAccessible(page);
    await page.getByLabel('Phone (optional)').fill('+49 30 1234567');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByRole('group', { name: 'Step 2 of 2: Accounts and roles' })).toBeVisible();
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await assertNotice(page, 'Administrator updated. Permissions edited.');
    await assertOnAdministratorDetails(page, NEW_NAME);
    await expect(page.getByRole('region', { name: 'Profile' }).getByText('+49301234567')).toBeVisible();
  });

  await test.step('the list disables and enables the new administrator from its row menu', async () => {
    await openAdministratorsFromNavigation(page);
    await assertAdministratorsListed(page);
    await search(page, run);
    await expect(page.getByText('2 administrators')).toBeVisible();
    await chooseRowAction(page, NEW_NAME, 'Disable');
    const dialog = page.getByRole('alertdialog', { name: 'Disable administrator' });
    await expect(dialog).toBeVisible();
    await assertAccessible(page);
    await dialog.getByRole('button', { name: 'Disable', exact: true }).click();
    await assertNotice(page, 'Administrator disabled.');
    await expect(administratorRow(page, NEW_NAME)).toContainText('Disabled');
    await chooseRowAction(page, NEW_NAME, 'Enable');
    await assertNotice(page, 'Administrator enabled.');
    await expect(administratorRow(page, NEW_NAME)).not.toContainText('Disabled');
  });

  await test.step('Delete selected removes the first administrator of the account once DELETE is typed', async () => {
    await selectRow(page, ACCOUNT_ADMINISTRATOR_NAME);
    await expect(page.getByText('1 selected')).toBeVisible();
    await deleteSelected(page);
    await assertNotice(page, 'Administrator deleted.');
    await expect(page.getByText('1 administrator', { exact: true })).toBeVisible();
    await expect(administratorRow(page, ACCOUNT_ADMINISTRATOR_NAME)).toHaveCount(0);
    await assertAdministratorsListed(page);
  });
});
