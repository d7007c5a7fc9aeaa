import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { hashPassword } from '../../../server/identity/passwords.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

// Counts the argon2id hashes the server computes, while still computing them.
vi.mock('../../../server/identity/passwords.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../server/identity/passwords.ts')>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
  // An administrator exists: setup is over.
  await harness.createUser({ accessScope: 'system' });
});
afterAll(() => harness.close());

describe('the setup endpoints once setup is over', () => {
  it('refuse a first administrator without computing a password hash', async () => {
    vi.mocked(hashPassword).mockClear();
    const response = await harness.app.request(apiPaths.setup.user, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        first_name: 'Mallory',
        last_name: 'Example',
        email: 'mallory@example.com',
        user_name: 'mallory',
        password: 'Analytical-Engine-1843',
        repeatedPassword: 'Analytical-Engine-1843',
      }),
    });
    expect(response.status).toBe(403);
    expect(hashPassword).not.toHaveBeenCalled();
  });
});
