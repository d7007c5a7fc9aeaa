import type { APIRequestContext } from '@playwright/test';
import { apiPaths } from '../contract/paths.ts';
import { expect, test } from './fixtures.ts';
import { assertOfflineNotice } from './pages/offline.ts';
import {
  assertOnEditOrganization,
  assertOnOrganization,
  assertPendingSync,
  clickEditOrganization,
  goToEditOrganization,
  goToOrganization,
  renameOrganizationOffline,
  saveOrganizationOffline,
} from './pages/organizations.ts';
import {
  assertConflict,
  assertOutboxCount,
  assertOutboxNeedsAttention,
  closeOutbox,
  discardEntry,
  openOutbox,
  organizationEditSummary,
} from './pages/outbox.ts';
import { assertNoUpdateOffered, assertUpdateOffered, clickReloadForUpdate } from './pages/shell.ts';
import { signIn } from './pages/sign-in.ts';
import { signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from './support/environment.ts';
import { storedOutboxStates, waitForCachedQuery, waitForWorkerControl } from './support/offline.ts';
import {
  organizationThroughApi,
  profileThroughApi,
  ScenarioOrganizations,
  tokensOf,
} from './support/organizations-api.ts';
import { deployNewWorkerBuild, WorkerNetwork } from './support/worker-network.ts';

// How the outbox replays in the browser against the real server: answers lost after the commit, a
// token that expired offline, two tabs changing one object, a new build, and several changes of one
// object in one tab.

/** Names unique to this run, so a repeated run on the same server finds only its own objects. */
const run = Date.now().toString(36);

const organizations = new ScenarioOrganizations();

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const token = await signInThroughApi(request, ADMINISTRATOR);
  const administrator = await profileThroughApi(request, token);
  await organizations.create(
    request,
    token,
    administrator.primary_account_id,
    ['lostAnswer', 'expiredToken', 'twoTabs', 'newBuild', 'twoEdits'],
    (key) => `Replay ${key} organization ${run}`,
  );
});

/** The scenario's organization, its API path and its state on the server as the administrator reads it. */
function scenarioTarget(key: string, request: APIRequestContext) {
  const target = organizations.get(key);
  const administrator = tokensOf(request, ADMINISTRATOR);
  return {
    target,
    path: apiPaths.organizations.byId(target.id),
    renamed: `${target.name} renamed`,
    onServer: async () => organizationThroughApi(request, await administrator(), target.id),
  };
}

test('a change the server committed whose answer was lost lands once when the connection returns', async ({
  page,
  context,
  request,
}) => {
  const { target, path, renamed, onServer } = scenarioTarget('lostAnswer', request);
  await signIn(page, ADMINISTRATOR);
  await goToEditOrganization(page, target);
  await waitForCachedQuery(page, `["organizations","detail","${target.id}"`);

  const network = await WorkerNetwork.watch(context, [path], { loseAnswers: 1 });

  await test.step('the save reaches the server, its answer does not: the console keeps the change', async () => {
    await renameOrganizationOffline(page, renamed);
    expect(network.answers()).toEqual([
      { method: 'PUT', path, status: 204, replayed: false, answerLost: true },
    ]);
    expect(await onServer()).toMatchObject({ name: renamed, version: target.version + 1 });
  });

  await test.step('back online, the change is sent again under its key and lands once, without a conflict', async () => {
    await network.setOffline(false);
    await assertOutboxCount(page, 0);
    await expect.poll(() => storedOutboxStates(page)).toEqual([]);
    expect(network.answers()).toEqual([
      { method: 'PUT', path, status: 204, replayed: false, answerLost: true },
      { method: 'PUT', path, status: 204, replayed: true, answerLost: false },
    ]);
    expect(network.sent[1]?.idempotencyKey).toBe(network.sent[0]?.idempotencyKey);
    expect(await onServer()).toMatchObject({ name: renamed, version: target.version + 1 });
    await assertOnOrganization(page, renamed);
  });
});

test('an access token that expired offline is renewed before the waiting change is sent, without a sign-in', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout((ACCESS_TOKEN_TTL_SECONDS + 75) * 1000);
  const { target, path, renamed, onServer } = scenarioTarget('expiredToken', request);
  const network = await WorkerNetwork.watch(context, [path]);
  await signIn(page, ADMINISTRATOR);
  await goToEditOrganization(page, target);

  await test.step('offline past the token’s lifetime, the change waits', async () => {
    // The console renews its token when it expires; offline, that renewal fails: the token is spent.
    // Watched from before the network goes, since on a busy machine the renewal may come while the
    // rename is still being checked.
    const renewalFailed = context.waitForEvent('requestfailed', {
      predicate: (failed) => new URL(failed.url()).pathname === apiPaths.identity.refresh,
      timeout: (ACCESS_TOKEN_TTL_SECONDS + 20) * 1000,
    });
    await network.setOffline(true);
    await renameOrganizationOffline(page, renamed);
    await renewalFailed;
    await assertOfflineNotice(page);
    await assertOutboxCount(page, 1);
    expect(network.sent).toEqual([]);
  });

  await test.step('back online, the change goes with a renewed token and lands; nobody is asked to sign in', async () => {
    const cameBackAt = Math.floor(Date.now() / 1000);
    await network.setOffline(false);
    await expect.poll(async () => (await onServer()).name).toBe(renamed);
    expect(network.answers()).toEqual([
      { method: 'PUT', path, status: 204, replayed: false, answerLost: false },
    ]);
    expect(network.sent[0]?.token?.iat).toBeGreaterThanOrEqual(cameBackAt);
    // The token is renewed before the change goes, not after the server has refused it.
    expect(network.refusedForExpiredToken).toEqual([]);
    expect((await onServer()).version).toBe(target.version + 1);
    await assertOutboxCount(page, 0);
    await assertOnOrganization(page, renamed);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toHaveCount(0);
  });
});

test('a change saved in a second tab on a screen that still showed the old values comes back as a conflict, not over the first tab’s change', async ({
  page,
  context,
  request,
}) => {
  const { target, path, renamed, onServer } = scenarioTarget('twoTabs', request);
  const city = `Second tab city ${run}`;
  const network = await WorkerNetwork.watch(context, [path]);
  await signIn(page, ADMINISTRATOR);
  await goToEditOrganization(page, target);
  const other = await context.newPage();
  await goToOrganization(other, target.id);
  await assertOnOrganization(other, target.name);
  await waitForWorkerControl(other);
  await waitForCachedQuery(other, `["organizations","detail","${target.id}"`);

  await test.step('offline, the first tab renames the organization; the second edits it on the old values', async () => {
    await network.setOffline(true);
    await renameOrganizationOffline(page, renamed);
    await assertOutboxCount(other, 1);
    await clickEditOrganization(other);
    // The second tab's copy does not have the rename: its form shows the old name.
    await assertOnEditOrganization(other, target.name);
    await saveOrganizationOffline(other, { City: city }, { shownName: target.name, waiting: 2 });
    await assertOutboxCount(page, 2);
  });

  await test.step('both tabs come online at once: the rename lands, the second tab’s change conflicts', async () => {
    await network.setOffline(false);
    // The waiting changes may still be in their back-off from the failed attempts while offline.
    await expect.poll(() => storedOutboxStates(page)).toEqual(['conflict']);
    await assertOutboxNeedsAttention(other);
    await assertOutboxCount(other, 1);
    await assertOutboxCount(page, 1);
    expect(network.answers()).toEqual([
      { method: 'PUT', path, status: 204, replayed: false, answerLost: false },
      { method: 'PUT', path, status: 412, replayed: false, answerLost: false },
    ]);
    // Each on the version its screen loaded: the second was not moved onto the rename's version.
    expect(network.sent.map((each) => [each.ifMatch, each.body])).toEqual([
      [`"${target.version}"`, expect.objectContaining({ name: renamed, city: target.city })],
      [`"${target.version}"`, expect.objectContaining({ name: target.name, city })],
    ]);
    expect(await onServer()).toMatchObject({ name: renamed, city: target.city, version: target.version + 1 });
  });

  await test.step('the second tab shows its change beside the server’s; discarded, the rename stays', async () => {
    await openOutbox(other);
    await assertConflict(other, organizationEditSummary(target.name), {
      field: 'name',
      yours: target.name,
      server: renamed,
    });
    await discardEntry(other, organizationEditSummary(target.name));
    await closeOutbox(other);
    await assertOutboxCount(other, 0);
    await assertOutboxCount(page, 0);
    expect(network.sent).toHaveLength(2);
    expect(await onServer()).toMatchObject({ name: renamed, city: target.city, version: target.version + 1 });
    await assertOnOrganization(other, renamed);
    await assertOnOrganization(page, renamed);
    await other.close();
  });
});

test('changes waiting when a new build is accepted stay in the outbox and land once', async ({
  page,
  context,
  request,
}) => {
  const { target, path, renamed, onServer } = scenarioTarget('newBuild', request);
  const network = await WorkerNetwork.watch(context, [path]);
  await signIn(page, ADMINISTRATOR);
  await goToOrganization(page, target.id);
  await assertOnOrganization(page, target.name);
  await waitForWorkerControl(page);

  const undeploy = deployNewWorkerBuild(run);
  try {
    await test.step('a new build is deployed; the next visit finds it and offers it', async () => {
      await page.reload();
      await assertOnOrganization(page, target.name);
      await assertUpdateOffered(page);
    });

    await test.step('offline, a change waits in the outbox of the build still running', async () => {
      await clickEditOrganization(page);
      await assertOnEditOrganization(page, target.name);
      await network.setOffline(true);
      await renameOrganizationOffline(page, renamed);
      await waitForCachedQuery(page, `["organizations","detail","${target.id}"`);
    });

    await test.step('the new build is accepted offline: the reloaded console still holds the change', async () => {
      const previousWorker = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return registration.waiting === null;
      });
      expect(previousWorker, 'the new build waits beside the running one').toBe(false);
      await clickReloadForUpdate(page);
      // The click reloads the page once the new worker takes over (seconds on a busy machine); a
      // check cut off by that reload reads as not yet.
      await expect
        .poll(() =>
          page
            .evaluate(async () => {
              const registration = await navigator.serviceWorker.getRegistration();
              return registration?.waiting === null && navigator.serviceWorker.controller !== null;
            })
            .catch(() => false),
        )
        .toBe(true);
      await assertNoUpdateOffered(page);
      await assertOnOrganization(page, renamed);
      await assertOfflineNotice(page);
      await assertPendingSync(page);
      await assertOutboxCount(page, 1);
      expect(await storedOutboxStates(page)).toEqual(['pending']);
      expect(network.sent).toEqual([]);
    });

    await test.step('back online, the new build sends it once', async () => {
      await network.setOffline(false);
      await expect.poll(async () => (await onServer()).name).toBe(renamed);
      expect(network.answers()).toEqual([
        { method: 'PUT', path, status: 204, replayed: false, answerLost: false },
      ]);
      expect((await onServer()).version).toBe(target.version + 1);
      await assertOutboxCount(page, 0);
      await assertOnOrganization(page, renamed);
    });
  } finally {
    undeploy();
  }
});

test('two offline edits of one organization both land, the second on the version the first made', async ({
  page,
  context,
  request,
}) => {
  const { target, path, renamed, onServer } = scenarioTarget('twoEdits', request);
  const city = `Second edit city ${run}`;
  const network = await WorkerNetwork.watch(context, [path]);
  await signIn(page, ADMINISTRATOR);
  await goToEditOrganization(page, target);

  await test.step('offline, the organization is renamed, then edited again on what the screen shows', async () => {
    await network.setOffline(true);
    await renameOrganizationOffline(page, renamed);
    await clickEditOrganization(page);
    await assertOnEditOrganization(page, renamed);
    await saveOrganizationOffline(page, { City: city }, { shownName: renamed, waiting: 2 });
  });

  await test.step('back online, both land in order, the second rebased on the first’s version', async () => {
    await network.setOffline(false);
    await assertOutboxCount(page, 0);
    await expect.poll(() => storedOutboxStates(page)).toEqual([]);
    expect(network.answers()).toEqual([
      { method: 'PUT', path, status: 204, replayed: false, answerLost: false },
      { method: 'PUT', path, status: 204, replayed: false, answerLost: false },
    ]);
    expect(network.sent.map((each) => each.ifMatch)).toEqual([
      `"${target.version}"`,
      `"${target.version + 1}"`,
    ]);
    expect(await onServer()).toMatchObject({ name: renamed, city, version: target.version + 2 });
    await assertOnOrganization(page, renamed);
  });
});
