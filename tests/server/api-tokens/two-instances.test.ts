import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { createApp } from '../../../server/app.ts';
import { addDays } from '../../../server/dates.ts';
import { TODAY } from '../accounts/helpers.ts';
import { signIn } from '../identity/requests.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-app.ts';
import { createToken } from './helpers.ts';

/**
 * Escalation 13 (decision 018 §3.5): a revoked or expired token, or one of a disabled or deleted user,
 * answers 401 on the very next request, in a second instance of the application on the same database
 * as much as in the one that made the change; a token of a user whose primary account is inactive
 * holds no permission. Nothing about a token is kept between requests by either instance.
 */

let harness: TestApp;
let second: ReturnType<typeof createApp>;
let clock = new Date(`${TODAY}T12:00:00Z`);

async function newPerson(): Promise<{ user: TestUser; session: string }> {
  const user = await harness.createUser({ accessScope: 'account' });
  return { user, session: (await signIn(harness, user)).accessToken };
}

/** What each instance answers a token now: [first, second]. */
async function statuses(value: string, path: string = apiPaths.users.list): Promise<number[]> {
  const init = { headers: { Authorization: `Bearer ${value}` } };
  return [(await harness.app.request(path, init)).status, (await second.request(path, init)).status];
}

beforeAll(async () => {
  harness = await createTestApp({ now: () => clock });
  second = createApp(harness.deps);
});

afterAll(() => harness.close());

describe('a token stops working at once in every instance', () => {
  it('when revoked through the other instance', async () => {
    const { user, session } = await newPerson();
    const token = await createToken(harness, session, user.id);
    expect(await statuses(token.value)).toEqual([200, 200]);
    // Both instances have just accepted it; the revocation goes through the first.
    const revoked = await harness.app.request(apiPaths.users.apiToken(user.id, token.id), {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${session}` },
    });
    expect(revoked.status).toBe(204);
    expect(await statuses(token.value)).toEqual([401, 401]);
  });

  it('after its end date, and not on it', async () => {
    const { user, session } = await newPerson();
    const token = await createToken(harness, session, user.id, { end_date: addDays(TODAY, 1) });
    clock = new Date(`${addDays(TODAY, 1)}T23:59:59Z`);
    expect(await statuses(token.value)).toEqual([200, 200]);
    clock = new Date(`${addDays(TODAY, 2)}T00:00:00Z`);
    expect(await statuses(token.value)).toEqual([401, 401]);
    clock = new Date(`${TODAY}T12:00:00Z`);
  });

  it('when its user is disabled, and again once enabled', async () => {
    const { user, session } = await newPerson();
    const token = await createToken(harness, session, user.id);
    expect(await statuses(token.value)).toEqual([200, 200]);
    await harness.deps.db.updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
    expect(await statuses(token.value)).toEqual([401, 401]);
    await harness.deps.db.updateTable('users').set({ active: true }).where('id', '=', user.id).execute();
    expect(await statuses(token.value)).toEqual([200, 200]);
  });

  it('when its user is deleted', async () => {
    const { user, session } = await newPerson();
    const token = await createToken(harness, session, user.id);
    await harness.deps.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await statuses(token.value)).toEqual([401, 401]);
  });

  it("holds no permission while its user's primary account is inactive", async () => {
    const { user, session } = await newPerson();
    const token = await createToken(harness, session, user.id);
    await harness.deps.db
      .updateTable('accounts')
      .set({ active: false })
      .where('id', '=', user.accountId)
      .execute();
    expect(await statuses(token.value)).toEqual([403, 403]);
    expect(await statuses(token.value, apiPaths.identity.me)).toEqual([200, 200]);
  });
});

describe('last use', () => {
  it('is written at most once a minute per token', async () => {
    const { user, session } = await newPerson();
    const token = await createToken(harness, session, user.id);
    const lastUsed = async () =>
      (
        await harness.deps.db
          .selectFrom('api_tokens')
          .select('last_used_at')
          .where('id', '=', token.id)
          .executeTakeFirstOrThrow()
      ).last_used_at?.toISOString() ?? null;
    expect(await lastUsed()).toBeNull();
    const first = clock;
    await statuses(token.value);
    expect(await lastUsed()).toBe(first.toISOString());
    clock = new Date(first.getTime() + 30_000);
    await statuses(token.value);
    expect(await lastUsed()).toBe(first.toISOString());
    clock = new Date(first.getTime() + 61_000);
    await statuses(token.value);
    expect(await lastUsed()).toBe(clock.toISOString());
    clock = first;
  });
});
