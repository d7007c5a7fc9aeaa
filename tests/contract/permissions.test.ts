import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_ROLES,
  hasEveryPermission,
  isPermissionName,
  PERMISSION_FLAGS,
  PERMISSION_NAMES,
  permissionFlagsFrom,
} from '../../contract/permissions.ts';

describe('permission flags from names (overview §6)', () => {
  it('sets exactly the flags of the names held', () => {
    const flags = permissionFlagsFrom(['VIEW_ACCOUNT', 'MANAGE_SYSTEM_SETTINGS', 'VIEW_IOT_LICENSE']);
    const raised = Object.entries(flags)
      .filter(([, value]) => value)
      .map(([flag]) => flag);
    expect(raised.sort()).toEqual(['canManageSystemSettings', 'canViewAccount', 'canViewIotLicense']);
  });

  it('lists every flag, false when its name is not held', () => {
    const flags = permissionFlagsFrom([]);
    expect(Object.keys(flags)).toHaveLength(PERMISSION_FLAGS.size);
    expect(Object.values(flags).every((value) => value === false)).toBe(true);
  });

  it('ignores names it does not know', () => {
    expect(permissionFlagsFrom(['VIEW_EVERYTHING', 'view_account'])).toEqual(permissionFlagsFrom([]));
  });

  it('maps the certificate names to their own flags', () => {
    const flags = permissionFlagsFrom(['VIEW_CERTIFICATE', 'REVOKE_CERTIFICATE']);
    expect(flags.canViewCertificate).toBe(true);
    expect(flags.canRevokeCertificate).toBe(true);
  });

  it('gives every name its own flag', () => {
    expect(new Set(PERMISSION_FLAGS.values()).size).toBe(PERMISSION_NAMES.length);
  });
});

describe('hasEveryPermission (overview §6)', () => {
  const flags = permissionFlagsFrom(['VIEW_ACCOUNT', 'VIEW_USER']);

  it.each([
    ['nothing is required', [], true],
    ['every required flag is held', ['canViewAccount', 'canViewUser'], true],
    ['one required flag is missing', ['canViewAccount', 'canManageUser'], false],
  ] as const)('is %s when %s', (_label, required, expected) => {
    expect(hasEveryPermission(flags, required)).toBe(expected);
  });

  it('treats a flag absent from a partial set as not held', () => {
    expect(hasEveryPermission({ canViewAccount: true }, ['canViewUser'])).toBe(false);
  });
});

describe('built-in roles', () => {
  it.each(Object.entries(BUILT_IN_ROLES))('%s uses only valid, distinct permission names', (_code, role) => {
    const names: readonly string[] = role.permissions;
    expect(names.filter((name) => !isPermissionName(name))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(0);
  });

  it('gives the system administrator every permission', () => {
    expect([...BUILT_IN_ROLES.system_administrator.permissions].sort()).toEqual([...PERMISSION_NAMES].sort());
  });

  it('gives the read-only auditor no manage or revoke permission', () => {
    const names: readonly string[] = BUILT_IN_ROLES.read_only_auditor.permissions;
    expect(names.filter((name) => !name.startsWith('VIEW_'))).toEqual([]);
  });
});
