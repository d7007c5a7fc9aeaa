import { parseOptions, verify } from '@node-rs/argon2';
import { describe, expect, it, vi } from 'vitest';
import { hashPassword, verifyPassword } from '../../../server/identity/passwords.ts';

// The real argon2, observed: which hash each verification runs against.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...actual, verify: vi.fn(actual.verify) };
});

describe('password hashing', () => {
  it('hashes with argon2id at m=19456, t=2, p=1 and a fresh salt each time', async () => {
    const first = await hashPassword('Correct-Horse-42!');
    const second = await hashPassword('Correct-Horse-42!');
    expect(first.startsWith('$argon2id$')).toBe(true);
    expect(parseOptions(first)).toMatchObject({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(first).not.toBe(second);
  });

  it('accepts the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('Correct-Horse-42!');
    expect(await verifyPassword(stored, 'Correct-Horse-42!')).toBe(true);
    expect(await verifyPassword(stored, 'correct-horse-42!')).toBe(false);
  });

  it('refuses every password for a user without a hash', async () => {
    expect(await verifyPassword(null, 'anything')).toBe(false);
  });

  it('refuses instead of throwing when the stored hash is unreadable', async () => {
    expect(await verifyPassword('not-a-phc-string', 'anything')).toBe(false);
  });

  it('runs a full argon2id verification at the same cost for a user without a hash', async () => {
    vi.mocked(verify).mockClear();
    expect(await verifyPassword(null, 'wrong-password')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
    const [dummyHash] = vi.mocked(verify).mock.calls[0] ?? [];
    // Same algorithm and costs as a stored hash, so the answer takes as long as a real check.
    expect(String(dummyHash).startsWith('$argon2id$')).toBe(true);
    expect(parseOptions(String(dummyHash))).toMatchObject({
      memoryCost: 19_456,
      timeCost: 2,
      parallelism: 1,
    });
  });
});
