import { describe, expect, it } from 'vitest';
import { routerHref, safeReturnPath } from '../../../src/lib/return-path.ts';

describe('return path after sign-in', () => {
  it('keeps a console path with its query and hash', () => {
    expect(safeReturnPath('/account/reporting/logging?page=2#step=2')).toBe(
      '/account/reporting/logging?page=2#step=2',
    );
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['another site', 'https://evil.example/account/accounts'],
    ['protocol-relative', '//evil.example/account/accounts'],
    ['backslash trick', '/\\evil.example'],
    ['outside the console', '/imauth/api/v1/logout'],
    ['a look-alike prefix', '/accountant'],
    ['javascript', 'javascript:alert(1)'],
    ['dot segments leaving the console', '/account/../imauth/api/v1/logout'],
  ])('falls back to the accounts list for %s', (_case, candidate) => {
    expect(safeReturnPath(candidate)).toBe('/account/accounts');
  });

  it('turns a console path into the router path below the base path', () => {
    expect(routerHref('/account/accounts?x=1')).toBe('/accounts?x=1');
    expect(routerHref('/account')).toBe('/');
  });
});
