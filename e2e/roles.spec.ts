import { apiPaths } from '../contract/paths.ts';
import type { Role, RoleList, User, UserList } from '../contract/schemas/users.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { setChecked } from './pages/controls.ts';
import {
  assertOnRoleDetails,
  assertOnRoleForm,
  assertRolesListed,
  assignUser,
  fillRoleName,
  filterRolesByType,
  nextRoleStep,
  openRole,
  openRolesFromNavigation,
  permissionBox,
  ROLES_PATH,
  roleFormStep,
  roleUserRow,
  searchRoles,
} from './pages/roles.ts';
import { signIn } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';

const run = Date.now().toString(36);
const ACCOUNT_NAME = `Roles Harbour ${run}`;
const PERSON = {
  first: 'Grace',
  last: `Roles ${run}`,
  userName: `roles-${run}`,
  password: 'Harbour-Admin-2026!x',
};
const FULL_NAME = `${PERSON.first} ${PERSON.last}`;
const CLONE_NAME = `Account administrator without audit ${run}`;

let accountId = '';
let token = '';

const auth = () => ({ Authorization: `Bearer ${token}` });

test.beforeAll(async ({ request }) => {
  token = await signInThroughApi(request, {
    username: ADMINISTRATOR.username,
    password: ADMINISTRATOR.password,
  });
  const account = await createAccountThroughApi(request, token, {
    name: ACCOUNT_NAME,
    locale: 'en_US',
    type: 'standard',
    service_period: { to: dateInDays(60) },
    administrator: {
      first_name: PERSON.first,
      last_name: PERSON.last,
      email: `${PERSON.userName}@example.com`,
      user_name: PERSON.userName,
      password: PERSON.password,
      repeatedPassword: PERSON.password,
    },
  });
  accountId = account.id;
});

test('a system administrator clones the account administrator role without the audit log, gives it to an account administrator, who then has no Reporting', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000);
  let builtInId = '';

  await test.step('the system administrator opens Access › User roles and the built-in Account administrator', async () => {
    await signIn(page, { username: ADMINISTRATOR.username, password: ADMINISTRATOR.password });
    await openRolesFromNavigation(page);
    await assertRolesListed(page);
    await filterRolesByType(page, 'Built-in');
    await expect(page).toHaveURL((url) => url.searchParams.get('type') === 'built_in');
    await openRole(page, 'Account administrator');
    builtInId = page.url().split('/').pop() ?? '';
    // A built-in role is read-only: it may be cloned, never edited or archived.
    await expect(page.getByRole('link', { name: 'Clone', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit', exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Archive' })).toHaveCount(0);
  });

  await test.step('the clone, for the new account, leaves out viewing the audit log', async () => {
    await page.goto(`${ROLES_PATH}/clone-role/${builtInId}?account=${accountId}`);
    await assertOnRoleForm(page, 'Clone role Account administrator');
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Copy of Account administrator');
    await expect(page.getByRole('combobox', { name: 'Account', exact: true })).toHaveValue(accountId);
    await expect(page.getByRole('option', { name: ACCOUNT_NAME })).toBeAttached();
    await fillRoleName(page, CLONE_NAME);
    await nextRoleStep(page);
    const auditLog = permissionBox(page, 'View: Audit log');
    await expect(auditLog).toBeChecked();
    await setChecked(auditLog, false);
    await nextRoleStep(page);
    const review = page.getByRole('group', { name: 'Step 3 of 3: Review' });
    await expect(review).toContainText(CLONE_NAME);
    await expect(review.getByText('Manage: Users', { exact: true })).toBeVisible();
    await expect(review.getByText('View: Audit log')).toHaveCount(0);
    await assertAccessible(page);
    // The browser's Back returns a step, with the choices kept.
    await page.goBack();
    await expect.poll(() => roleFormStep(page)).toBe(2);
    await expect(permissionBox(page, 'View: Audit log')).not.toBeChecked();
    await nextRoleStep(page);
    await page.getByRole('button', { name: 'Create role' }).click();
    await expect(page.getByText('Role created.')).toBeVisible();
    await assertOnRoleDetails(page, CLONE_NAME);
    await expect(page.getByText('View: Audit log')).toHaveCount(0);
    await expect(page.getByText('Manage: Users', { exact: true })).toBeVisible();
  });

  await test.step('the edit form of the custom role opens with its permissions', async () => {
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await assertOnRoleForm(page, `Edit role ${CLONE_NAME}`);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(CLONE_NAME);
    await expect(permissionBox(page, 'View: Audit log')).not.toBeChecked();
    await expect(permissionBox(page, 'Manage: Users')).toBeChecked();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await assertOnRoleDetails(page, CLONE_NAME);
  });

  await test.step('the clone is assigned to the account administrator from the role page', async () => {
    await assignUser(page, PERSON.userName, FULL_NAME);
    await expect(roleUserRow(page, FULL_NAME)).toContainText(ACCOUNT_NAME);
    await assertOnRoleDetails(page, CLONE_NAME);
  });

  await test.step('their built-in role is taken away, so the clone is their only role', async () => {
    // A token of its own: the sign-in in the browser started another session of the same person.
    token = await signInThroughApi(request, {
      username: ADMINISTRATOR.username,
      password: ADMINISTRATOR.password,
    });
    const users = await request.get(apiPaths.users.list, { params: { q: PERSON.userName }, headers: auth() });
    expect(users.status(), await users.text()).toBe(200);
    const [person] = ((await users.json()) as UserList).items;
    expect(person?.user_name).toBe(PERSON.userName);
    const removed = await request.put(apiPaths.roles.users(builtInId), {
      data: { remove: [person?.id] },
      headers: auth(),
    });
    expect(removed.status(), await removed.text()).toBe(204);
    const read = await request.get(apiPaths.users.byId(person?.id ?? ''), { headers: auth() });
    const user = (await read.json()) as User;
    const names = user.permissions.map((permission) => permission.name);
    expect(names).toContain('MANAGE_USER');
    expect(names).not.toContain('VIEW_AUDIT_LOG');
    const roles = await request.get(apiPaths.roles.list, {
      params: { account_id: accountId, type: 'custom', q: CLONE_NAME },
      headers: auth(),
    });
    const [clone] = ((await roles.json()) as RoleList).items as Role[];
    expect(clone?.permissions).not.toContain('VIEW_AUDIT_LOG');
  });

  await test.step('the account administrator signs in and finds no Reporting', async () => {
    const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const theirs = await context.newPage();
    await signIn(theirs, { username: PERSON.userName, password: PERSON.password });
    const navigation = theirs.getByRole('navigation', { name: 'Main navigation' });
    await expect(navigation.getByRole('link', { name: 'Access' })).toBeVisible();
    await expect(navigation.getByRole('link', { name: 'Reporting' })).toHaveCount(0);
    await context.close();
  });

  await test.step('the roles list finds the clone by its name and offers a new role', async () => {
    await page.goto(ROLES_PATH);
    await filterRolesByType(page, 'Custom');
    await searchRoles(page, run);
    await expect(page.getByText('1 role', { exact: true })).toBeVisible();
    await assertRolesListed(page);
    // Its one holder, and its account, in the row.
    const row = page.getByRole('row', { name: new RegExp(CLONE_NAME) });
    await expect(row).toContainText(ACCOUNT_NAME);
    await expect(row.getByRole('cell', { name: '1', exact: true })).toHaveCount(1);
    await page.getByRole('link', { name: 'Create role' }).click();
    await assertOnRoleForm(page, 'Create role');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await assertRolesListed(page);
  });

  await test.step('archiving the clone says how many users lose it, and leaves it out of the active roles', async () => {
    await searchRoles(page, run);
    await openRole(page, CLONE_NAME);
    await page.getByRole('button', { name: 'Archive' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('1 user holds this role and loses its permissions at once.');
    await assertAccessible(page);
    await dialog.getByRole('button', { name: 'Archive role' }).click();
    await expect(page.getByText('Role archived.')).toBeVisible();
    await assertRolesListed(page);
    await searchRoles(page, run);
    await expect(page.getByText('No roles match these filters.')).toBeVisible();
  });
});
