import { parseOptions } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../server/identity/passwords.ts';

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

  it('spends about as long on a user without a hash as on a real check', async () => {
    const stored = await hashPassword('Correct-Horse-42!');
    await verifyPassword(null, 'warm-up');
    const timed = async (check: () => Promise<boolean>) => {
      const start = performance.now();
      await check();
      return performance.now() - start;
    };
    const real = await timed(() => verifyPassword(stored, 'wrong-password'));
    const dummy = await timed(() => verifyPassword(null, 'wrong-password'));
    // A shortcut answer takes well under a millisecond; an argon2 run at these costs takes >5 ms.
    expect(dummy).toBeGreaterThan(real / 3);
  });
});
