import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { friendlyIdentifierSchema } from '../../../contract/schemas/tenants.ts';
import { deriveFriendlyIdentifier, nameSlug } from '../../../server/accounts/friendly-identifier.ts';

describe('friendly identifiers derived from account names', () => {
  it.each([
    ['Northwind Traders', 'northwind-traders'],
    ['Müller & Söhne GmbH', 'muller-sohne-gmbh'],
    ['  --ACME (Europe), Ltd.  ', 'acme-europe-ltd'],
    ['株式会社', 'account'],
    ['Ünïcödé 株式会社 42', 'unicode-42'],
    ['a'.repeat(60), 'a'.repeat(40)],
    [`${'a'.repeat(39)} b`, 'a'.repeat(39)],
  ])('%j → %j', (name, slug) => {
    expect(nameSlug(name)).toBe(slug);
  });

  it('adds a random suffix that keeps the identifier within the contract', () => {
    const drawn = new Set<string>();
    for (let index = 0; index < 50; index += 1) {
      const identifier = deriveFriendlyIdentifier('Northwind Traders');
      expect(identifier).toMatch(/^northwind-traders-[a-z0-9]{6}$/);
      expect(v.safeParse(friendlyIdentifierSchema, identifier).success).toBe(true);
      drawn.add(identifier);
    }
    expect(drawn.size).toBe(50);
  });
});
