import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { verifyPassword } from '../../../server/identity/passwords.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

// Counts the argon2id verifications the server computes, while still computing them.
vi.mock('../../../server/identity/passwords.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../server/identity/passwords.ts')>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});

let harness: TestApp;
beforeAll(async () => {
  // Behind a proxy of its own, so each caller is told apart by X-Forwarded-For.
  harness = await createTestApp({ config: { trustProxy: true } });
});
afterAll(() => harness.close());

async function signInFrom(address: string, password: string): Promise<Response> {
  return await harness.app.request(apiPaths.identity.login, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
    body: JSON.stringify({ username: 'nobody', password }),
  });
}

describe('anonymous sign-in requests flooding the password hashing', () => {
  it('are refused before any hashing beyond their share, while another client goes next', async () => {
    const actual = await vi.importActual<typeof import('../../../server/identity/passwords.ts')>(
      '../../../server/identity/passwords.ts',
    );
    // Hashing waits until the refusals are in, so every request meets a busy gate whatever the machine's speed.
    let releaseHashing = () => {};
    const hashingHeld = new Promise<void>((resolve) => {
      releaseHashing = resolve;
    });
    vi.mocked(verifyPassword).mockReset();
    vi.mocked(verifyPassword).mockImplementation(async (hash, password) => {
      await hashingHeld;
      return actual.verifyPassword(hash, password);
    });

    let refusals = 0;
    const flood = Array.from({ length: 12 }, (_, i) =>
      signInFrom('203.0.113.9', `flood-${i}`).then((answer) => {
        if (answer.status === 429 && ++refusals === 8) releaseHashing();
        return answer;
      }),
    );
    const someoneElse = signInFrom('192.0.2.44', 'colleague');
    const answers = await Promise.all(flood);

    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(4);
    const refused = answers.find((answer) => answer.status === 429);
    expect(refused?.headers.get('Retry-After')).toBe('1');
    expect(await refused?.json()).toMatchObject({ error: { status: 429, code: 'throttled' } });
    expect((await someoneElse).status).toBe(401);

    // Four of the flood and the other client hashed. However the requests arrived, the other client
    // waits for at most the flood's running job and its next turn, never for all four (it would
    // come last if the jobs ran in arrival order).
    const hashed = vi.mocked(verifyPassword).mock.calls.map(([, password]) => password);
    expect(hashed).toHaveLength(5);
    expect(hashed.filter((password) => password.startsWith('flood-'))).toHaveLength(4);
    expect(hashed.indexOf('colleague')).toBeLessThanOrEqual(2);
  });
});
