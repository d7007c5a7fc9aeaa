import { CONSOLE_BASE_PATH } from '../contract/paths.ts';
import { expect, test } from './fixtures.ts';
import {
  assertFieldError,
  assertOnSetupLicence,
  assertOnSetupUser,
  assertSetupComplete,
  clickContinue,
  clickCreateAdministrator,
  fillAdministrator,
  fillLicenceText,
  goToSetupLicence,
} from './pages/setup.ts';
import { assertOnAccounts, clickSignOut, clickUserMenu, goToConsoleHome } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps } from './pages/sign-in.ts';
import { ADMINISTRATOR, ADMINISTRATOR_DISPLAY_NAME } from './support/administrator.ts';
import { issueLicence } from './support/licence.ts';

test.use({ freshPlatform: true });

test('a new platform is set up with a licence and its first administrator, who signs in and out', async ({
  page,
}) => {
  await test.step('a fresh console sends the visitor to sign-in or setup', async () => {
    await goToConsoleHome(page);
    await expect(page).toHaveURL(
      (url) =>
        url.pathname === `${CONSOLE_BASE_PATH}/login` ||
        url.pathname === `${CONSOLE_BASE_PATH}/setup-license`,
    );
  });

  await test.step('the licence is installed', async () => {
    await goToSetupLicence(page);
    await assertOnSetupLicence(page);
    await fillLicenceText(page, await issueLicence());
    await clickContinue(page);
    await assertOnSetupUser(page);
  });

  await test.step('a short password is refused', async () => {
    await fillAdministrator(page, { ...ADMINISTRATOR, password: 'Short-1', repeatedPassword: 'Short-1' });
    await clickCreateAdministrator(page);
    await assertFieldError(page, 'Password', /12/);
    await assertOnSetupUser(page);
  });

  await test.step('the first administrator is created', async () => {
    await fillAdministrator(page, { ...ADMINISTRATOR, repeatedPassword: ADMINISTRATOR.password });
    await clickCreateAdministrator(page);
    await assertOnSignIn(page);
  });

  await test.step('the administrator signs in and sees the accounts', async () => {
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
  });

  await test.step('the administrator signs out', async () => {
    await clickUserMenu(page, ADMINISTRATOR_DISPLAY_NAME);
    await clickSignOut(page);
    await assertOnSignIn(page);
  });

  await test.step('setup cannot be run a second time', async () => {
    await assertSetupComplete(page);
  });
});
