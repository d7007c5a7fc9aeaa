import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { STORAGE_SECRET_BYTES, storageSecretSchema } from '../../../contract/schemas/identity.ts';
import { signedInUser } from '../accounts/helpers.ts';
import { signIn } from '../identity/requests.ts';
import { call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/** GET storage-secret: the key-wrapping secret of a user's offline data in the console. */

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

async function secretOf(token: string): Promise<{ response: Response; secret: string }> {
  const response = await call(harness, 'GET', apiPaths.identity.storageSecret, { token });
  expect(response.status).toBe(200);
  const body = v.parse(storageSecretSchema, await response.json());
  return { response, secret: body.secret };
}

describe('storage secret', () => {
  it('asks for a valid token', async () => {
    for (const token of [undefined, 'not.a.token']) {
      const response = await call(harness, 'GET', apiPaths.identity.storageSecret, { token });
      expect(response.status).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toBe('Bearer');
    }
  });

  it('is 32 random bytes in base64url, never cached, and the same on every call and session', async () => {
    const user = await signedInUser(harness, { accessScope: 'account' });
    const logged = vi.spyOn(console, 'info');
    const first = await secretOf(user.token);
    expect(first.response.headers.get('Cache-Control')).toBe('no-store');
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first.secret, 'base64url')).toHaveLength(STORAGE_SECRET_BYTES);
    expect((await secretOf(user.token)).secret).toBe(first.secret);
    const secondSession = await signIn(harness, user);
    expect((await secretOf(secondSession.accessToken)).secret).toBe(first.secret);
    expect(JSON.stringify(logged.mock.calls)).not.toContain(first.secret);
    logged.mockRestore();
  });

  it('differs between users, and concurrent first requests agree on one', async () => {
    const [a, b] = [
      await signedInUser(harness, { accessScope: 'account' }),
      await signedInUser(harness, { accessScope: 'account' }),
    ];
    const answers = await Promise.all([secretOf(a.token), secretOf(a.token), secretOf(a.token)]);
    expect(new Set(answers.map((answer) => answer.secret)).size).toBe(1);
    expect((await secretOf(b.token)).secret).not.toBe(answers[0]?.secret);
    const stored = await harness.deps.db
      .selectFrom('user_storage_secrets')
      .select('user_id')
      .where('user_id', 'in', [a.id, b.id])
      .execute();
    expect(stored).toHaveLength(2);
  });

  it('goes with its user', async () => {
    const user = await signedInUser(harness, { accessScope: 'account' });
    await secretOf(user.token);
    await harness.deps.db.deleteFrom('user_roles').where('user_id', '=', user.id).execute();
    await harness.deps.db.deleteFrom('users').where('id', '=', user.id).execute();
    const left = await harness.deps.db
      .selectFrom('user_storage_secrets')
      .select('user_id')
      .where('user_id', '=', user.id)
      .execute();
    expect(left).toEqual([]);
  });
});
