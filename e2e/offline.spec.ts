import { assertAccessible, expect, test } from './fixtures.ts';
import { accountRow, assertAccountsListed, filterByName } from './pages/accounts.ts';
import { assertOfflineNotice } from './pages/offline.ts';
import {
  assertEditKeptOnDevice,
  assertOnOrganization,
  assertPendingSync,
  clickSaveChanges,
  fillOrganization,
  goToEditOrganization,
  goToOrganization,
  organizationPath,
  renameOrganizationOffline,
} from './pages/organizations.ts';
import {
  applyOnCurrentVersion,
  assertConflict,
  assertOutboxCount,
  assertOutboxNeedsAttention,
  assertSignOutAsksAboutWaiting,
  clickDiscardAndSignOut,
  clickKeepAndSignOut,
  closeOutbox,
  discardEntry,
  openOutbox,
  organizationEditSummary,
} from './pages/outbox.ts';
import { assertOnAccounts, clickSignOut, clickUserMenu, goToConsoleHome } from './pages/shell.ts';
import { assertOnSignIn, type Credentials, signIn } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR, ADMINISTRATOR_DISPLAY_NAME } from './support/administrator.ts';
import {
  dumpOfflineDatabase,
  PersistentBrowser,
  storedOutboxStates,
  waitForCachedQuery,
  waitForWorkerControl,
} from './support/offline.ts';
import {
  editOrganizationThroughApi,
  organizationThroughApi,
  profileThroughApi,
  ScenarioOrganizations,
  tokensOf,
} from './support/organizations-api.ts';

/** Names unique to this run, so a repeated run on the same server finds only its own objects. */
const run = Date.now().toString(36);

interface AccountUser extends Credentials {
  firstName: string;
  lastName: string;
  email: string;
  accountName: string;
}

function accountUser(role: string): AccountUser {
  return {
    firstName: 'Offline',
    lastName: `${role[0]?.toUpperCase()}${role.slice(1)} ${run}`,
    email: `${role}.${run}@example.com`,
    username: `${role}-${run}`,
    password: `${role}-Password-2026!x`,
    accountName: `Offline ${role} account ${run}`,
  };
}

/** Two administrators of accounts of their own: the one who keeps a change, the one who signs in after. */
const KEEPER = accountUser('keeper');
const SUCCESSOR = accountUser('successor');

const organizations = new ScenarioOrganizations();

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const administratorToken = await signInThroughApi(request, ADMINISTRATOR);
  const administrator = await profileThroughApi(request, administratorToken);
  for (const user of [KEEPER, SUCCESSOR]) {
    await createAccountThroughApi(request, administratorToken, {
      name: user.accountName,
      locale: 'en_US',
      type: 'standard',
      service_period: { to: dateInDays(365) },
      administrator: {
        first_name: user.firstName,
        last_name: user.lastName,
        email: user.email,
        user_name: user.username,
        password: user.password,
        repeatedPassword: user.password,
      },
    });
  }
  const nameOf = (key: string) => `Offline ${key} organization ${run}`;
  await organizations.create(
    request,
    administratorToken,
    administrator.primary_account_id,
    ['restart', 'conflict', 'tabs', 'signOut'],
    nameOf,
  );
  const keeperToken = await signInThroughApi(request, KEEPER);
  const keeper = await profileThroughApi(request, keeperToken);
  await organizations.create(request, keeperToken, keeper.primary_account_id, ['kept'], nameOf);
});

test('an offline reload shows the shell and the cached accounts list with its offline notice', async ({
  page,
  context,
}) => {
  await test.step('the administrator signs in and the accounts list is kept for offline use', async () => {
    await signIn(page, ADMINISTRATOR);
    await assertOnAccounts(page);
    await assertAccountsListed(page);
    // Other stories add accounts too: the filter keeps this one on the first page whatever they added.
    await filterByName(page, KEEPER.accountName);
    await expect(accountRow(page, KEEPER.accountName)).toBeVisible();
    await waitForWorkerControl(page);
    await waitForCachedQuery(page, '["accounts","list"', KEEPER.accountName);
  });

  await test.step('offline, the reload draws the shell and the list from the cache', async () => {
    await context.setOffline(true);
    await page.reload();
    await assertOnAccounts(page);
    await expect(page.getByRole('button', { name: ADMINISTRATOR_DISPLAY_NAME })).toBeVisible();
    await assertOfflineNotice(page);
    await expect(accountRow(page, KEEPER.accountName)).toBeVisible();
    await assertAccountsListed(page);
  });
});

test('an offline edit survives closing the browser and reaches the server exactly once', async ({
  request,
  baseURL,
}, testInfo) => {
  const target = organizations.get('restart');
  const renamed = `${target.name} renamed offline`;
  const administrator = tokensOf(request, ADMINISTRATOR);
  const onServer = async () => organizationThroughApi(request, await administrator(), target.id);
  const browser = new PersistentBrowser(testInfo, baseURL);
  let context = await browser.launch();
  try {
    let page = context.pages()[0] ?? (await context.newPage());

    await test.step('the administrator edits the organization offline', async () => {
      await signIn(page, ADMINISTRATOR);
      await goToEditOrganization(page, target);
      await context.setOffline(true);
      await renameOrganizationOffline(page, renamed);
      await waitForCachedQuery(page, `["organizations","detail","${target.id}"`);
      await expect.poll(() => storedOutboxStates(page)).toEqual(['pending']);
    });

    await test.step('the browser closes and opens again, still offline: the change still waits', async () => {
      await context.close();
      context = await browser.launch();
      await context.setOffline(true);
      page = context.pages()[0] ?? (await context.newPage());
      await page.goto(organizationPath(target.id));
      await assertOfflineNotice(page);
      await assertOutboxCount(page, 1);
      await assertPendingSync(page);
      await assertAccessible(page);
      expect(await onServer()).toMatchObject({ name: target.name, version: target.version });
    });

    await test.step('back online, the change lands once', async () => {
      await context.setOffline(false);
      await expect.poll(async () => (await onServer()).name, { timeout: 20_000 }).toBe(renamed);
      await assertOutboxCount(page, 0);
      await expect.poll(() => storedOutboxStates(page)).toEqual([]);
      expect(await onServer()).toMatchObject({ name: renamed, version: target.version + 1 });
      await assertOnOrganization(page, renamed);
    });
  } finally {
    await context.close();
    browser.remove();
  }
});

test('a change made meanwhile on the server shows beside the queued one; discard keeps the server’s, apply on current version lands the queued one', async ({
  page,
  context,
  request,
}) => {
  const target = organizations.get('conflict');
  const administrator = tokensOf(request, ADMINISTRATOR);
  const onServer = async () => organizationThroughApi(request, await administrator(), target.id);
  const first = { queued: `${target.name} queued first`, server: `${target.name} server first` };
  const second = { queued: `${target.name} queued second`, server: `${target.name} server second` };
  await signIn(page, ADMINISTRATOR);

  await test.step('a rename queued offline meets a rename made on the server meanwhile', async () => {
    await goToEditOrganization(page, target);
    await context.setOffline(true);
    await renameOrganizationOffline(page, first.queued);
    await editOrganizationThroughApi(request, await administrator(), target.id, { name: first.server });
    await context.setOffline(false);
    await assertOutboxNeedsAttention(page);
    await assertOutboxCount(page, 1);
    await openOutbox(page);
    await assertConflict(page, organizationEditSummary(target.name), {
      field: 'name',
      yours: first.queued,
      server: first.server,
    });
  });

  let serverVersion = 0;
  await test.step('discarded, the change is gone and the server keeps its value', async () => {
    await discardEntry(page, organizationEditSummary(target.name));
    await closeOutbox(page);
    await assertOutboxCount(page, 0);
    await expect.poll(() => storedOutboxStates(page)).toEqual([]);
    const current = await onServer();
    expect(current).toMatchObject({ name: first.server, version: target.version + 1 });
    serverVersion = current.version;
    await assertOnOrganization(page, first.server);
  });

  await test.step('queued again and met by another change on the server', async () => {
    await goToEditOrganization(page, { ...target, name: first.server });
    await context.setOffline(true);
    await renameOrganizationOffline(page, second.queued);
    await editOrganizationThroughApi(request, await administrator(), target.id, { name: second.server });
    await context.setOffline(false);
    await assertOutboxNeedsAttention(page);
    await openOutbox(page);
    await assertConflict(page, organizationEditSummary(first.server), {
      field: 'name',
      yours: second.queued,
      server: second.server,
    });
  });

  await test.step('applied on the current version, the queued value lands on the server', async () => {
    await applyOnCurrentVersion(page, organizationEditSummary(first.server));
    await expect.poll(async () => (await onServer()).name).toBe(second.queued);
    expect((await onServer()).version).toBe(serverVersion + 2);
    await closeOutbox(page);
    await assertOutboxCount(page, 0);
    await assertOnOrganization(page, second.queued);
  });
});

test('two tabs show the same outbox: a change queued in one counts in the other, a discard in one clears both', async ({
  page,
  context,
  request,
}) => {
  const target = organizations.get('tabs');
  const administrator = tokensOf(request, ADMINISTRATOR);
  const renamed = `${target.name} renamed in one tab`;
  await signIn(page, ADMINISTRATOR);
  await goToEditOrganization(page, target);
  const other = await context.newPage();
  await goToOrganization(other, target.id);
  await assertOnOrganization(other, target.name);
  await waitForWorkerControl(other);
  await assertOutboxCount(other, 0);

  await test.step('a change queued in one tab shows in the other', async () => {
    await context.setOffline(true);
    await renameOrganizationOffline(page, renamed);
    await assertOutboxCount(other, 1);
    await assertPendingSync(other);
  });

  await test.step('discarded in the other tab, it leaves both', async () => {
    await editOrganizationThroughApi(request, await administrator(), target.id, { phone: '+49 30 1234567' });
    await context.setOffline(false);
    await assertOutboxNeedsAttention(other);
    await assertOutboxNeedsAttention(page);
    await openOutbox(other);
    await discardEntry(other, organizationEditSummary(target.name));
    await closeOutbox(other);
    await assertOutboxCount(other, 0);
    await assertOutboxCount(page, 0);
    await assertAccessible(other);
    await other.close();
  });
});

test('signing out with a waiting change asks whether to keep it and honours the choice', async ({
  page,
  context,
  request,
}) => {
  const target = organizations.get('signOut');
  const administrator = tokensOf(request, ADMINISTRATOR);
  const onServer = async () => organizationThroughApi(request, await administrator(), target.id);
  const discarded = `${target.name} discarded at sign-out`;
  const kept = `${target.name} kept at sign-out`;
  await signIn(page, ADMINISTRATOR);

  await test.step('discarded at sign-out, the change never reaches the server', async () => {
    await goToEditOrganization(page, target);
    await context.setOffline(true);
    await renameOrganizationOffline(page, discarded);
    await clickUserMenu(page, ADMINISTRATOR_DISPLAY_NAME);
    await clickSignOut(page);
    await assertSignOutAsksAboutWaiting(page, 1);
    await clickDiscardAndSignOut(page);
    await assertOnSignIn(page);
    await expect.poll(() => storedOutboxStates(page)).toEqual([]);
    await context.setOffline(false);
    // The server never heard of the sign-out; back online, the console still does not sign back in.
    await goToConsoleHome(page);
    await assertOnSignIn(page);
    await signIn(page, ADMINISTRATOR);
    await assertOutboxCount(page, 0);
    expect(await onServer()).toMatchObject({ name: target.name, version: target.version });
  });

  await test.step('kept at sign-out, the change waits for the same user and is sent when they return', async () => {
    await goToEditOrganization(page, target);
    await context.setOffline(true);
    await renameOrganizationOffline(page, kept);
    await clickUserMenu(page, ADMINISTRATOR_DISPLAY_NAME);
    await clickSignOut(page);
    await assertSignOutAsksAboutWaiting(page, 1);
    await clickKeepAndSignOut(page);
    await assertOnSignIn(page);
    await expect.poll(() => storedOutboxStates(page)).toEqual(['held']);
    await context.setOffline(false);
    await goToConsoleHome(page);
    await assertOnSignIn(page);
    expect(await onServer()).toMatchObject({ name: target.name, version: target.version });
    await signIn(page, ADMINISTRATOR);
    await expect.poll(async () => (await onServer()).name).toBe(kept);
    expect((await onServer()).version).toBe(target.version + 1);
    await assertOutboxCount(page, 0);
  });
});

test('the next user of the browser reads nothing of the one before, whose kept change waits for them', async ({
  page,
  context,
  request,
}) => {
  const target = organizations.get('kept');
  const keeper = tokensOf(request, KEEPER);
  const onServer = async () => organizationThroughApi(request, await keeper(), target.id);
  const change = { Name: `Confidential rename ${run}`, City: `Undisclosed city ${run}` };
  const keeperName = `${KEEPER.firstName} ${KEEPER.lastName}`;

  await test.step('the first user keeps an offline change at sign-out', async () => {
    await signIn(page, KEEPER);
    await goToEditOrganization(page, target);
    await context.setOffline(true);
    await fillOrganization(page, change);
    await clickSaveChanges(page);
    await assertEditKeptOnDevice(page, change.Name);
    await assertOutboxCount(page, 1);
    await clickUserMenu(page, keeperName);
    await clickSignOut(page);
    await assertSignOutAsksAboutWaiting(page, 1);
    await clickKeepAndSignOut(page);
    await assertOnSignIn(page);
    await expect.poll(() => storedOutboxStates(page)).toEqual(['held']);
    await context.setOffline(false);
  });

  await test.step('another user signs in', async () => {
    await signIn(page, SUCCESSOR);
    await waitForWorkerControl(page);
    await waitForCachedQuery(page, '[');
    await assertOutboxCount(page, 0);
  });

  await test.step('nothing of the first user is readable in the browser’s database', async () => {
    const dump = await dumpOfflineDatabase(page);
    expect(dump.outbox, 'the kept change is stored, sealed').toHaveLength(1);
    const secrets = [
      KEEPER.username,
      KEEPER.email,
      KEEPER.lastName,
      KEEPER.accountName,
      target.name,
      target.address,
      target.city,
      change.Name,
      change.City,
    ];
    const readable = Object.entries(dump).flatMap(([store, records]) =>
      records.flatMap((record) =>
        secrets.filter((secret) => record.includes(secret)).map((secret) => `${store}: "${secret}"`),
      ),
    );
    expect(readable).toEqual([]);
  });

  await test.step('the kept change does not replay under the other user', async () => {
    // Every trigger of a replay a page has: the connection returning, and focus.
    await page.evaluate(() => {
      window.dispatchEvent(new Event('online'));
      window.dispatchEvent(new Event('focus'));
    });
    await page.waitForTimeout(3000);
    expect(await onServer()).toMatchObject({ name: target.name, version: target.version });
    expect(await storedOutboxStates(page)).toEqual(['held']);
  });

  await test.step('when the first user signs in again, the change lands', async () => {
    await clickUserMenu(page, `${SUCCESSOR.firstName} ${SUCCESSOR.lastName}`);
    await clickSignOut(page);
    await assertOnSignIn(page);
    await signIn(page, KEEPER);
    await expect.poll(async () => (await onServer()).name).toBe(change.Name);
    expect(await onServer()).toMatchObject({ city: change.City, version: target.version + 1 });
    await assertOutboxCount(page, 0);
  });
});
