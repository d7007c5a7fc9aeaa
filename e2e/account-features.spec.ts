import { assertAccessible, expect, test } from './fixtures.ts';
import {
  assertFeatureError,
  assertFeaturesShown,
  featureSwitch,
  fillTrialEndDate,
  saveFeatures,
  saveFeaturesSuccessfully,
  setFeature,
  trialEndDate,
} from './pages/account-features.ts';
import { assertOnAccountDetails, goToAccountDetails } from './pages/accounts.ts';
import { assertOnAccounts, chooseTheme } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';

/** Names unique to this run, so a scenario repeated on the same server finds only its own accounts. */
const run = Date.now().toString(36);
const ACCOUNT_END = dateInDays(60);

for (const theme of ['Light', 'Dark'] as const) {
  test(`an administrator sets an account's features by their rules in the ${theme.toLowerCase()} theme`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const name = `Features ${theme} ${run}`;
    const token = await signInThroughApi(request, {
      username: ADMINISTRATOR.username,
      password: ADMINISTRATOR.password,
    });
    const slug = `${theme.toLowerCase()}-${run}`;
    const account = await createAccountThroughApi(request, token, {
      name,
      locale: 'en_US',
      type: 'standard',
      service_period: { to: ACCOUNT_END },
      administrator: {
        first_name: 'Feature',
        last_name: 'Administrator',
        email: `features-${slug}@example.com`,
        user_name: `features-${slug}`,
        password: 'Feature-Admin-2026!x',
        repeatedPassword: 'Feature-Admin-2026!x',
      },
    });

    await test.step('the administrator signs in, chooses the theme and opens the account', async () => {
      await goToSignIn(page);
      await assertOnSignIn(page);
      await fillSignInSteps(page, ADMINISTRATOR);
      await assertOnAccounts(page);
      await chooseTheme(page, theme);
      await goToAccountDetails(page, account.id);
      await assertOnAccountDetails(page, name);
      await assertFeaturesShown(page);
    });

    await test.step('a trial with an end date is saved', async () => {
      await setFeature(page, 'Trial account', true);
      await fillTrialEndDate(page, dateInDays(30));
      await saveFeaturesSuccessfully(page);
      await expect(featureSwitch(page, 'Trial account')).toBeChecked();
    });

    await test.step('key-locker turned on turns the trial off', async () => {
      await setFeature(page, 'Key-locker account', true);
      await expect(featureSwitch(page, 'Trial account')).not.toBeChecked();
      await expect(trialEndDate(page)).toHaveCount(0);
    });

    await test.step('public issuance cannot be turned off while key-locker is on', async () => {
      await setFeature(page, 'Public issuance', false);
      await assertFeatureError(
        featureSwitch(page, 'Public issuance'),
        'Public issuance cannot be turned off while the key-locker account feature is on.',
      );
      await assertAccessible(page);
      await setFeature(page, 'Public issuance', true);
      await saveFeaturesSuccessfully(page);
    });

    await test.step('a trial ending after the account is refused at its end date', async () => {
      await setFeature(page, 'Trial account', true);
      await expect(featureSwitch(page, 'Key-locker account')).not.toBeChecked();
      await fillTrialEndDate(page, dateInDays(90));
      await saveFeatures(page);
      await assertFeatureError(trialEndDate(page), "The end date cannot be after the account's end date.");
      await assertAccessible(page);
    });
  });
}
