import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { ensureBuiltInRoles } from '../../../server/users/roles.ts';
import { USER_NAME_PROBES } from '../../../server/users/user-name-probes.ts';
import { insertAccount, newTenantForm, signedInUser } from '../accounts/helpers.ts';
import { csvOf, goodUsers, upload } from '../bulk-import/helpers.ts';
import { errorOf } from '../errors.ts';
import { signIn } from '../identity/requests.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertTestUser } from './helpers.ts';

/**
 * User names are unique on the whole platform, so a taken one is refused whoever holds it; what a
 * caller may learn of the names of users outside its reach is bounded per hour (decision 041).
 */
let harness: TestApp;
let now: Date;
let roles: Awaited<ReturnType<typeof ensureBuiltInRoles>>;
let partnerAccount: string;
let elsewhere: string;
let serial = 0;

beforeAll(async () => {
  now = new Date('2026-03-10T12:00:00Z');
  harness = await createTestApp({ now: () => now });
  await harness.installLicence();
  roles = await ensureBuiltInRoles(harness.deps.db, now);
  partnerAccount = await insertAccount(harness, { name: 'Partner', type: 'partner' });
  elsewhere = await insertAccount(harness, { name: 'Another customer' });
});
afterAll(() => harness.close());

/** A user of the account no partner administrator here reaches; answers its user name. */
async function userElsewhere(): Promise<string> {
  serial += 1;
  const userName = `elsewhere-${serial}`;
  await insertTestUser(harness, { accountId: elsewhere, userName });
  return userName;
}

const exists = (caller: Caller, userName: string) =>
  call(harness, 'GET', `${apiPaths.users.exists}?${new URLSearchParams({ user_name: userName })}`, {
    token: caller.token,
  });

const newAccount = (caller: Caller, userName: string) => {
  const form = newTenantForm();
  return call(harness, 'POST', apiPaths.tenants.list, {
    token: caller.token,
    body: { ...form, administrator: { ...form.administrator, user_name: userName } },
  });
};

const newPartnerAdministrator = () =>
  signedInUser(harness, { accessScope: 'partner', accountId: partnerAccount });

describe('user names of users outside the caller’s reach', () => {
  it('refuses a taken one with 409 inUse, and past the hour’s budget every check with 429, free names too', async () => {
    const partner = await newPartnerAdministrator();
    const refused = await newAccount(partner, await userElsewhere());
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({ code: 'inUse', field: 'administrator.user_name' });
    for (let probe = 2; probe <= USER_NAME_PROBES.maxFailures; probe += 1) {
      expect((await (await exists(partner, await userElsewhere())).json()).exists).toBe(true);
    }

    // The budget is spent: nothing tells a free name from a taken one any more, for an hour.
    const free = await exists(partner, `free-${serial}`);
    expect(free.status).toBe(429);
    expect(Number(free.headers.get('Retry-After'))).toBeGreaterThan(3000);
    expect((await newAccount(partner, `free-${serial}`)).status).toBe(429);
    expect((await exists(partner, await userElsewhere())).status).toBe(429);

    // Another caller has a budget of its own; the hour over, the first one's is whole again.
    const colleague = await newPartnerAdministrator();
    expect((await exists(colleague, `free-${serial}`)).status).toBe(200);
    now = new Date(now.getTime() + USER_NAME_PROBES.windowSeconds * 1000);
    const signedInAgain = { ...partner, token: (await signIn(harness, partner)).accessToken };
    const after = await exists(signedInAgain, `free-${serial}`);
    expect(after.status).toBe(200);
    expect((await after.json()).exists).toBe(false);
  });

  it('costs nothing for names of users within reach, which the caller can list anyway', async () => {
    const customer = await insertAccount(harness, { name: 'Own customer' });
    const admin = await signedInUser(harness, { accessScope: 'account', accountId: customer });
    for (let probe = 0; probe <= USER_NAME_PROBES.maxFailures; probe += 1) {
      serial += 1;
      await insertTestUser(harness, { accountId: customer, userName: `own-${serial}` });
      const body = {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: `own-${serial}@example.com`,
        user_name: `own-${serial}`,
        phone: '',
        locale: 'en_US',
        primary_account_id: customer,
        role_ids: [roles.account_administrator],
      };
      const taken = await call(harness, 'POST', apiPaths.users.list, { token: admin.token, body });
      expect(taken.status).toBe(409);
    }
    expect((await exists(admin, 'nobody-has-this')).status).toBe(200);
  });

  it('counts the rows of a bulk file whose names belong to users outside reach, and refuses a file past the budget', async () => {
    const partner = await newPartnerAdministrator();
    const customer = await insertAccount(harness, {
      name: 'Partner customer',
      partnerAccountId: partnerAccount,
    });
    const outside = await Promise.all(
      Array.from({ length: USER_NAME_PROBES.maxFailures + 1 }, () => userElsewhere()),
    );
    const file = csvOf([
      ...goodUsers(`bulk-${serial}`, 2),
      ...outside.map((userName, index) => ({
        first_name: 'Grace',
        last_name: `Hopper ${index}`,
        email: `${userName}@example.org`,
        user_name: userName,
      })),
    ]);
    const answer = await upload(harness, partner, file, { accountId: customer });
    expect(answer.status).toBe(429);
    expect((await exists(partner, 'nobody-has-this')).status).toBe(429);
  });
});
