import { describe, expect, it } from 'vitest';
import { permissionFlagsFrom } from '../../../../contract/permissions.ts';
import {
  isGrantable,
  isStronger,
  mayCreateUsers,
  permissionsOfRoles,
  userActions,
} from '../../../../src/features/users/rules.ts';

const accountAdministrator = permissionFlagsFrom(['MANAGE_USER', 'MANAGE_ACCOUNT_USER', 'VIEW_USER']);
const target = { id: 'u-2', access_scope: 'account', status: 'active', email_verified: true } as const;

function refusals(actions: ReturnType<typeof userActions>) {
  return Object.fromEntries(actions.map((action) => [action.name, action.refusal]));
}

describe('what the console offers on a user (decision 018 §3)', () => {
  it('offers every change on a managed user of a scope the caller manages', () => {
    const actions = refusals(userActions(target, { id: 'u-1' }, accountAdministrator, false));
    expect(actions).toMatchObject({ view: null, edit: null, editRoles: null, disable: null, delete: null });
    expect(actions).not.toHaveProperty('enable');
    expect(actions).not.toHaveProperty('verification');
  });

  it('refuses roles, status, two-factor and deletion on oneself, but not one’s own fields', () => {
    const actions = refusals(
      userActions({ ...target, id: 'u-1' }, { id: 'u-1' }, accountAdministrator, false),
    );
    expect(actions).toMatchObject({
      edit: null,
      editRoles: 'oneself',
      disable: 'oneself',
      mfa: 'oneself',
      delete: 'oneself',
    });
  });

  it('refuses changes on a stronger user and on a scope the caller does not manage', () => {
    expect(refusals(userActions(target, { id: 'u-1' }, accountAdministrator, true)).delete).toBe('stronger');
    const partner = { ...target, access_scope: 'partner' } as const;
    expect(refusals(userActions(partner, { id: 'u-1' }, accountAdministrator, false)).edit).toBe(
      'permission',
    );
  });

  it('offers the verification link to pending users, Enable to disabled ones, Unlock when locked', () => {
    const pending = refusals(
      userActions(
        { ...target, status: 'pending', email_verified: false },
        { id: 'u-1' },
        accountAdministrator,
        false,
      ),
    );
    expect(pending.verification).toBeNull();
    const disabled = refusals(
      userActions({ ...target, status: 'disabled' }, { id: 'u-1' }, accountAdministrator, false),
    );
    expect(disabled.enable).toBeNull();
    const locked = refusals(
      userActions(
        { ...target, mfa: { enrolled: true, locked: true } },
        { id: 'u-1' },
        accountAdministrator,
        false,
      ),
    );
    expect(locked.unlock).toBeNull();
    expect(locked).not.toHaveProperty('mfa');
    const notEnrolled = refusals(
      userActions(
        { ...target, mfa: { enrolled: false, locked: false } },
        { id: 'u-1' },
        accountAdministrator,
        false,
      ),
    );
    expect(notEnrolled.mfa).toBe('status');
  });

  it('needs manage user and a scope to create, and grants only what the caller holds', () => {
    expect(mayCreateUsers(accountAdministrator)).toBe(true);
    expect(mayCreateUsers(permissionFlagsFrom(['VIEW_USER']))).toBe(false);
    const held = new Set(['VIEW_USER', 'MANAGE_USER']);
    expect(isGrantable({ permissions: ['VIEW_USER'] }, held)).toBe(true);
    expect(isGrantable({ permissions: ['VIEW_USER', 'MANAGE_SYSTEM_SETTINGS'] }, held)).toBe(false);
    expect(isStronger(['MANAGE_SYSTEM_SETTINGS'], held)).toBe(true);
    expect(isStronger(null, held)).toBe(false);
    const roles = [{ id: 'a', permissions: ['VIEW_USER'] }];
    expect(permissionsOfRoles(['a'], roles)).toEqual(['VIEW_USER']);
    expect(permissionsOfRoles(['a', 'b'], roles)).toBeNull();
  });
});
