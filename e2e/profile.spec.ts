import type { APIRequestContext, Page } from '@playwright/test';
import { assertAccessible, expect, test } from './fixtures.ts';
import { assertOnProfile, goToProfile, PROFILE_PATH } from './pages/shell.ts';
import { assertOnSignIn, assertSignInRefused, fillSignInSteps } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from './support/environment.ts';

/** Names unique to this run, so a scenario repeated on the same server meets only its own people. */
const run = Date.now().toString(36);

interface Person {
  firstName: string;
  lastName: string;
  username: string;
  password: string;
}

/** A standard account with its first administrator, who then acts on their own profile. */
async function accountAdministrator(request: APIRequestContext, label: string): Promise<Person> {
  const person: Person = {
    firstName: 'Mary',
    lastName: `Somerville ${label}`,
    username: `somerville-${label}-${run}`,
    password: 'Mechanism-Heavens-1831',
  };
  const token = await signInThroughApi(request, {
    username: ADMINISTRATOR.username,
    password: ADMINISTRATOR.password,
  });
  await createAccountThroughApi(request, token, {
    name: `Profile ${label} ${run}`,
    locale: 'en_US',
    type: 'standard',
    service_period: { to: dateInDays(120) },
    administrator: {
      first_name: person.firstName,
      last_name: person.lastName,
      email: `somerville.${label}.${run}@example.com`,
      user_name: person.username,
      password: person.password,
      repeatedPassword: person.password,
    },
  });
  return person;
}

async function signInOnProfile(page: Page, person: Person): Promise<void> {
  await goToProfile(page);
  await assertOnSignIn(page, { returnPath: PROFILE_PATH });
  await fillSignInSteps(page, person);
  await assertOnProfile(page);
}

test('a person edits their own profile, and the console switches to the language they chose', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const person = await accountAdministrator(request, 'edit');

  await test.step('the profile shows the person with Edit profile and Change password', async () => {
    await signInOnProfile(page, person);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      `${person.firstName} ${person.lastName}`,
    );
    await expect(page.getByRole('link', { name: 'Change password' })).toBeVisible();
    await page.getByRole('link', { name: 'Edit profile' }).click();
    await expect(page.getByRole('heading', { name: 'Edit profile', level: 1 })).toBeVisible();
    await assertAccessible(page);
  });

  const form = page.getByRole('form', { name: 'Edit profile' });

  await test.step('a user name someone else has is said when the field is left', async () => {
    const username = form.getByLabel('Username');
    await username.fill(ADMINISTRATOR.username);
    await username.blur();
    await expect(page.getByText('Username exists.')).toBeVisible();
    await username.fill(person.username);
    await username.blur();
    await expect(page.getByText('Username exists.')).toBeHidden();
  });

  await test.step('Update saves, switches to German without a reload, and opens the profile', async () => {
    await form.getByLabel('First name').fill('Marie');
    await form.getByLabel('Phone').fill('0049 (30) 123-45.67');
    await form.getByLabel('Language').selectOption('de_DE');
    await form.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Benutzer aktualisiert.')).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === PROFILE_PATH);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Marie ${person.lastName}`);
    await expect(page.getByRole('link', { name: 'Profil bearbeiten' })).toBeVisible();
    await expect(page.getByText('+49301234567')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', /^de/);
    await assertAccessible(page);
  });

  await test.step('an area opened after the switch draws its own texts in German too', async () => {
    // The administrators' texts are in a catalog of their own, first loaded now, after the switch.
    await page
      .getByRole('navigation', { name: 'Hauptnavigation' })
      .getByRole('link', { name: 'Administratoren' })
      .click();
    await expect(page.getByRole('region', { name: 'Tabelle der Administratoren' })).toBeVisible();
  });

  await test.step('after a reload the saved language stays', async () => {
    await page.reload();
    await expect(page.getByRole('region', { name: 'Tabelle der Administratoren' })).toBeVisible();
    await page.goto(PROFILE_PATH);
    await expect(page.getByRole('link', { name: 'Profil bearbeiten' })).toBeVisible();
  });
});

test('changing the password in one browser ends the session in another, which signs in with the new one', async ({
  browser,
  request,
}) => {
  test.setTimeout((ACCESS_TOKEN_TTL_SECONDS + 90) * 1000);
  const person = await accountAdministrator(request, 'password');
  const newPassword = 'Nautical-Almanac-1834';
  const here = await browser.newContext();
  const elsewhere = await browser.newContext();
  try {
    const page = await here.newPage();
    const other = await elsewhere.newPage();

    await test.step('the person is signed in in two browsers', async () => {
      await signInOnProfile(page, person);
      await signInOnProfile(other, person);
    });

    await test.step('a wrong current password is refused on its field', async () => {
      await page.getByRole('link', { name: 'Change password' }).click();
      await expect(page.getByRole('heading', { name: 'Change password', level: 1 })).toBeVisible();
      await page.getByLabel('Current password').fill('Not-My-Password-1');
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Repeat new password').fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByText('This is not the current password.')).toBeVisible();
      await assertAccessible(page);
    });

    await test.step('the right one changes it; this browser stays signed in', async () => {
      await page.getByLabel('Current password').fill(person.password);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByText('Password changed. You were signed out everywhere else.')).toBeVisible();
      await assertOnProfile(page);
    });

    await test.step('the other browser’s next call sends it to sign-in', async () => {
      // Checking a user name asks the server; the ended session cannot answer or be refreshed.
      await other.getByRole('link', { name: 'Edit profile' }).click();
      const username = other.getByRole('form', { name: 'Edit profile' }).getByLabel('Username');
      await username.fill(`${person.username}-x`);
      await username.blur();
      await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible({
        timeout: (ACCESS_TOKEN_TTL_SECONDS + 10) * 1000,
      });
    });

    await test.step('the old password no longer signs in; the new one does', async () => {
      await fillSignInSteps(other, person);
      await assertSignInRefused(other);
      await goToProfile(other);
      await fillSignInSteps(other, { ...person, password: newPassword });
      await assertOnProfile(other);
      // And the browser that changed it is still signed in.
      await page.reload();
      await assertOnProfile(page);
    });
  } finally {
    await here.close();
    await elsewhere.close();
  }
});

test('a system administrator keeps aliases on their profile', async ({ page }) => {
  const identifier = `badge-${run}`;
  const form = page.getByRole('form', { name: 'Edit profile' });
  const aliases = form.getByRole('group', { name: 'Aliases' });

  await test.step('an alias is added, checked and saved', async () => {
    await signInOnProfile(page, ADMINISTRATOR);
    await page.getByRole('link', { name: 'Edit profile' }).click();
    await aliases.getByRole('button', { name: 'Add alias' }).click();
    const rows = await aliases.getByRole('listitem').count();
    await aliases.getByLabel(`Identifier ${rows}`).fill('not valid!');
    await aliases.getByLabel(`Value ${rows}`).fill('4711');
    await form.getByRole('button', { name: 'Update' }).click();
    await expect(aliases.getByText('Invalid identifier.')).toBeVisible();
    await assertAccessible(page);
    await aliases.getByLabel(`Identifier ${rows}`).fill(identifier);
    await form.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('User updated.')).toBeVisible();
    await assertOnProfile(page);
    await expect(page.getByText(identifier)).toBeVisible();
  });

  await test.step('and removed again', async () => {
    await page.getByRole('link', { name: 'Edit profile' }).click();
    const rows = await aliases.getByRole('listitem').count();
    await expect(aliases.getByLabel(`Identifier ${rows}`)).toHaveValue(identifier);
    await aliases.getByRole('button', { name: `Remove alias ${rows}` }).click();
    await form.getByRole('button', { name: 'Update' }).click();
    await assertOnProfile(page);
    await expect(page.getByText(identifier)).toBeHidden();
  });
});
