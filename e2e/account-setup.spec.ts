import { apiPaths, CONSOLE_BASE_PATH } from '../contract/paths.ts';
import type { RoleList, User } from '../contract/schemas/users.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { fillSignInSteps } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { linkIn } from './support/mailbox.ts';

/** Names unique to this run, so a scenario repeated on the same server finds only its own people. */
const run = Date.now().toString(36);
const PERSON = {
  first_name: 'Katherine',
  last_name: `Johnson ${run}`,
  email: `katherine-${run}@example.com`,
  user_name: `katherine-${run}`,
};
const FIRST_PASSWORD = 'Orbital-Mechanics-1962!';
const NEW_PASSWORD = 'Friendship-Seven-1962!';

let adminToken: string;
let userId: string;

test.beforeAll(async ({ request }) => {
  adminToken = await signInThroughApi(request, {
    username: ADMINISTRATOR.username,
    password: ADMINISTRATOR.password,
  });
});

const authorized = () => ({ Authorization: `Bearer ${adminToken}` });

test('an invited person sets their password from the mailed link and signs in; a reset link sets a new one', async ({
  page,
  request,
  mailbox,
}) => {
  test.setTimeout(120_000);

  await test.step('the administrator creates the person through the API', async () => {
    const account = await createAccountThroughApi(request, adminToken, {
      name: `Mercury ${run}`,
      locale: 'en_US',
      type: 'standard',
      service_period: { to: dateInDays(60) },
      administrator: {
        first_name: 'Dorothy',
        last_name: `Vaughan ${run}`,
        email: `dorothy-${run}@example.com`,
        user_name: `dorothy-${run}`,
        password: 'Fortran-Programmer-1961!',
        repeatedPassword: 'Fortran-Programmer-1961!',
      },
    });
    const roles = await request.get(`${apiPaths.roles.list}?type=built_in&limit=100`, {
      headers: authorized(),
    });
    expect(roles.status(), await roles.text()).toBe(200);
    const role = ((await roles.json()) as RoleList).items.find(
      (item) => item.code === 'account_administrator',
    );
    if (role === undefined) throw new Error('No account administrator role.');
    const created = await request.post(apiPaths.users.list, {
      headers: authorized(),
      data: { ...PERSON, phone: '', locale: 'en_US', primary_account_id: account.id, role_ids: [role.id] },
    });
    expect(created.status(), await created.text()).toBe(201);
    userId = ((await created.json()) as User).id;
  });

  await test.step('the invitation arrives and its link opens the set-up page', async () => {
    const mail = await mailbox.waitForMail(PERSON.email, (message) =>
      (message.text ?? '').includes('/verify/'),
    );
    const link = linkIn(mail);
    expect(link.pathname).toContain(`${CONSOLE_BASE_PATH}/verify/${userId}/`);
    expect(link.searchParams.get('new')).toBe('1');
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('the page names the person, who chooses a password and is told the account is ready', async () => {
    await expect(page.getByLabel('Username')).toHaveValue(PERSON.user_name);
    await page.getByLabel('New password').fill(FIRST_PASSWORD);
    await page.getByLabel('Repeat password').fill(FIRST_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('the person signs in with the new password', async () => {
    await page.getByRole('link', { name: 'Go to sign-in' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await fillSignInSteps(page, { username: PERSON.user_name, password: FIRST_PASSWORD });
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  });

  await test.step('the same link no longer works', async () => {
    const mail = await mailbox.waitForMail(PERSON.email, (message) =>
      (message.text ?? '').includes('/verify/'),
    );
    const link = linkIn(mail);
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
  });

  await test.step('the administrator sends a password reset, and its link sets a new password', async () => {
    // Access tokens live seconds in these scenarios (support/environment.ts): sign in again.
    adminToken = await signInThroughApi(request, {
      username: ADMINISTRATOR.username,
      password: ADMINISTRATOR.password,
    });
    const reset = await request.put(apiPaths.users.resetMail(userId), { headers: authorized() });
    expect(reset.status(), await reset.text()).toBe(204);
    const mail = await mailbox.waitForMail(PERSON.email, (message) =>
      (message.text ?? '').includes('/reset-password/'),
    );
    const link = linkIn(mail);
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByLabel('Repeat password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('the person signs in with the new password', async () => {
    await page.getByRole('link', { name: 'Go to sign-in' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await fillSignInSteps(page, { username: PERSON.user_name, password: NEW_PASSWORD });
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  });
});
