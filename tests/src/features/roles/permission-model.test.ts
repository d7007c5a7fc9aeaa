import { describe, expect, it } from 'vitest';
import {
  initialSelection,
  permissionRows,
  toggle,
  toggleGroup,
} from '../../../../src/features/roles/permission-model.ts';

const USERS = [
  { name: 'VIEW_USER', grantable: true },
  { name: 'MANAGE_USER', grantable: true },
  { name: 'VIEW_SYSTEM_USER', grantable: false },
  { name: 'MANAGE_SYSTEM_USER', grantable: false },
];
const CERTIFICATES = [
  { name: 'VIEW_CERTIFICATE', grantable: true },
  { name: 'REVOKE_CERTIFICATE', grantable: true },
];

describe('the permission picker’s rows', () => {
  it('pairs each subject’s view and manage permission in the group’s order', () => {
    expect(permissionRows(USERS)).toEqual([
      { subject: 'USER', view: USERS[0], change: USERS[1] },
      { subject: 'SYSTEM_USER', view: USERS[2], change: USERS[3] },
    ]);
    expect(permissionRows(CERTIFICATES)[0]).toEqual({
      subject: 'CERTIFICATE',
      view: CERTIFICATES[0],
      change: CERTIFICATES[1],
    });
  });
});

describe('ticking and clearing a box', () => {
  const rowOf = (rows: ReturnType<typeof permissionRows>, index: number) => {
    const row = rows[index];
    if (!row) throw new Error(`no row ${index}`);
    return row;
  };
  const users = rowOf(permissionRows(USERS), 0);
  const systemUsers = rowOf(permissionRows(USERS), 1);
  const certificates = rowOf(permissionRows(CERTIFICATES), 0);

  it('ticks View with Manage, since managing needs seeing', () => {
    expect([...toggle(new Set(), users, 'change', true)].sort()).toEqual(['MANAGE_USER', 'VIEW_USER']);
  });

  it('clears Manage with View, and leaves View when only Manage is cleared', () => {
    const both = new Set(['VIEW_USER', 'MANAGE_USER']);
    expect([...toggle(both, users, 'view', false)]).toEqual([]);
    expect([...toggle(both, users, 'change', false)]).toEqual(['VIEW_USER']);
  });

  it('does not tie Revoke to View: revoking certificates is its own permission', () => {
    expect([...toggle(new Set(), certificates, 'change', true)]).toEqual(['REVOKE_CERTIFICATE']);
  });

  it('never chooses a permission the viewer cannot grant', () => {
    expect([...toggle(new Set(), systemUsers, 'change', true)]).toEqual([]);
  });

  it('selects every grantable permission of a group, then clears them', () => {
    const all = toggleGroup(new Set(), USERS);
    expect([...all].sort()).toEqual(['MANAGE_USER', 'VIEW_USER']);
    expect([...toggleGroup(all, USERS)]).toEqual([]);
  });
});

describe('a form filled from a role', () => {
  it('keeps what may be granted and lists what is left out', () => {
    const { selected, left } = initialSelection(['VIEW_USER', 'MANAGE_SYSTEM_USER'], USERS);
    expect([...selected]).toEqual(['VIEW_USER']);
    expect(left).toEqual(['MANAGE_SYSTEM_USER']);
  });
});
