import { expect, test } from './fixtures.ts';
import { assertOnProfile, goToProfile, PROFILE_PATH } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps } from './pages/sign-in.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from './support/environment.ts';

test('an expired session returns to sign-in and back to the page the administrator was on', async ({
  page,
  context,
}) => {
  // The access token lives ACCESS_TOKEN_TTL_SECONDS; allow for it, sign-in twice and the checks.
  test.setTimeout((ACCESS_TOKEN_TTL_SECONDS + 45) * 1000);

  await test.step('signed in on the profile page', async () => {
    await goToProfile(page);
    await assertOnSignIn(page, { returnPath: PROFILE_PATH });
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnProfile(page);
  });

  await test.step('without its refresh cookie the session ends when the access token expires', async () => {
    await context.clearCookies();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({
      timeout: (ACCESS_TOKEN_TTL_SECONDS + 10) * 1000,
    });
    await assertOnSignIn(page, { returnPath: PROFILE_PATH });
  });

  await test.step('signing in again returns to the profile', async () => {
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnProfile(page);
  });
});
