import { describe, expect, it } from 'vitest';
import { type PermissionFlag, permissionFlagsFrom } from '../../../../contract/permissions.ts';
import { type NavigationInput, navigationItems } from '../../../../src/features/shell/navigation.ts';

function input(held: PermissionFlag[], overrides: Partial<NavigationInput> = {}): NavigationInput {
  const flags = permissionFlagsFrom([]);
  for (const flag of held) flags[flag] = true;
  return {
    flags,
    scope: 'account',
    profile: { has_onelogin_id: false, onelogin_url: null },
    rolesFeatureEnabled: false,
    ...overrides,
  };
}

const ids = (items: ReturnType<typeof navigationItems>) => items.map((item) => item.id);
const access = (items: ReturnType<typeof navigationItems>) => items.find((item) => item.id === 'access');

describe('main navigation rules', () => {
  it('shows Accounts with view account or with manage account', () => {
    expect(ids(navigationItems(input(['canViewAccount'])))).toContain('accounts');
    expect(ids(navigationItems(input(['canManageAccount'])))).toContain('accounts');
    expect(ids(navigationItems(input([])))).not.toContain('accounts');
  });

  it('shows Organizations with view or manage organization', () => {
    expect(ids(navigationItems(input(['canViewOrganization'])))).toContain('organizations');
    expect(ids(navigationItems(input(['canManageOrganization'])))).toContain('organizations');
    expect(ids(navigationItems(input(['canViewAccount'])))).not.toContain('organizations');
  });

  it('shows Reporting with its Logging sub-item only with view audit log', () => {
    const reporting = navigationItems(input(['canViewAuditLog'])).find((item) => item.id === 'reporting');
    expect(reporting?.children.map((child) => child.id)).toEqual(['logging']);
    expect(ids(navigationItems(input(['canViewAccount'])))).not.toContain('reporting');
  });

  it('shows Platform settings only in system scope with a settings or licence permission', () => {
    for (const flag of ['canManageSystemSettings', 'canViewLicense', 'canManageLicense'] as const) {
      expect(ids(navigationItems(input([flag], { scope: 'system' })))).toContain('platformSettings');
      expect(ids(navigationItems(input([flag], { scope: 'partner' })))).not.toContain('platformSettings');
    }
    expect(ids(navigationItems(input(['canViewAccount'], { scope: 'system' })))).not.toContain(
      'platformSettings',
    );
  });

  it('shows Access with Administrators and Service users to user administrators', () => {
    for (const flag of ['canViewUser', 'canManageAccountUser', 'canManageSystemUser'] as const) {
      const item = access(navigationItems(input([flag])));
      expect(item?.target).toEqual({ to: '/access' });
      expect(item?.children.map((child) => child.id)).toEqual(['administrators', 'serviceUsers']);
    }
  });

  it('hides User roles while the roles feature is off, even with role permissions', () => {
    const item = access(navigationItems(input(['canViewUser', 'canManageUserRole'])));
    expect(item?.children.map((child) => child.id)).not.toContain('userRoles');
  });

  it('shows User roles with a role permission once the roles feature is on', () => {
    const on = { rolesFeatureEnabled: true };
    expect(access(navigationItems(input(['canViewUser', 'canViewUserRole'], on)))?.children.at(-1)?.id).toBe(
      'userRoles',
    );
    expect(
      access(navigationItems(input(['canViewUser'], on)))?.children.map((child) => child.id),
    ).not.toContain('userRoles');
  });

  it('points Access to the own profile without user permissions', () => {
    const item = access(navigationItems(input(['canViewAccount'])));
    expect(item).toEqual({ id: 'access', target: { to: '/profile' }, children: [] });
  });

  it('points Access to the external profile when the user has an external identity', () => {
    const profile = { has_onelogin_id: true, onelogin_url: 'https://id.example.com/profile' };
    expect(access(navigationItems(input([], { profile })))?.target).toEqual({
      href: 'https://id.example.com/profile',
    });
  });

  it('lists the items in the order of the spec', () => {
    const everything = permissionFlagsFrom([]);
    for (const key of Object.keys(everything) as PermissionFlag[]) everything[key] = true;
    expect(ids(navigationItems({ ...input([]), flags: everything, scope: 'system' }))).toEqual([
      'accounts',
      'organizations',
      'certificateAuthority',
      'access',
      'reporting',
      'platformSettings',
    ]);
  });

  it('shows each certificate authority page behind its own view permission, and Client tools to everyone', () => {
    const ca = (names: PermissionFlag[]) =>
      navigationItems(input(names)).find((item) => item.id === 'certificateAuthority');
    expect(ca([])).toEqual({
      id: 'certificateAuthority',
      target: { to: '/ca/client-tools' },
      children: [{ id: 'clientTools', target: { to: '/ca/client-tools' }, children: [] }],
    });
    expect(ca(['canViewCertificate'])?.children.map((child) => child.id)).toEqual([
      'certificates',
      'clientTools',
    ]);
    expect(ca(['canViewProfile'])?.target).toEqual({ to: '/ca/profiles' });
    expect(ca(['canViewEnrollment'])?.children.map((child) => child.id)).toEqual([
      'enrollments',
      'clientTools',
    ]);
    expect(ca(['canViewCa', 'canViewCertificate'])?.children.map((child) => child.id)).toEqual([
      'certificates',
      'rootCa',
      'intermediateCa',
      'clientTools',
    ]);
  });
});
