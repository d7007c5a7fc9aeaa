import { expect, test } from './fixtures.ts';
import {
  assertDocumentLanguage,
  assertOnPasswordStep,
  assertOnSignIn,
  assertSignInRefused,
  clickLanguage,
  clickNext,
  clickSignIn,
  fillPassword,
  fillUsername,
  goToSignIn,
} from './pages/sign-in.ts';
import { ADMINISTRATOR, ensureSetUp } from './support/administrator.ts';

test.beforeEach(async ({ request }) => {
  await ensureSetUp(request);
});

test('a wrong password is refused and the administrator can try again', async ({ page }) => {
  await goToSignIn(page);
  await assertOnSignIn(page);
  await fillUsername(page, ADMINISTRATOR.username);
  await clickNext(page);
  await assertOnPasswordStep(page);
  await fillPassword(page, `${ADMINISTRATOR.password}-wrong`);
  await clickSignIn(page);
  await assertSignInRefused(page);
});

test('the sign-in page switches to German', async ({ page }) => {
  await goToSignIn(page);
  await assertOnSignIn(page);
  await assertDocumentLanguage(page, 'en');
  await clickLanguage(page, 'Deutsch');
  await assertDocumentLanguage(page, 'de');
  await expect(page.getByRole('button', { name: 'Next', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Weiter', exact: true })).toBeVisible();
});
