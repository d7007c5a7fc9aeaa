import { splitPermission } from '../../components/role-labels.ts';

/** One permission the form shows: whether the viewer may grant it for this account (decision 018 G5, G9). */
export interface OfferedPermission {
  name: string;
  grantable: boolean;
}

/** A row of the permission picker: one subject and its View, Manage (or Revoke) boxes. */
export interface PermissionRow {
  subject: string;
  view: OfferedPermission | null;
  /** MANAGE_… or, for certificates, REVOKE_…. */
  change: OfferedPermission | null;
}

/** A group's permissions as rows by subject, in the group's order. */
export function permissionRows(permissions: readonly OfferedPermission[]): PermissionRow[] {
  const rows = new Map<string, PermissionRow>();
  for (const permission of permissions) {
    const { action, subject } = splitPermission(permission.name);
    const row = rows.get(subject) ?? { subject, view: null, change: null };
    if (action === 'VIEW') row.view = permission;
    else row.change = permission;
    rows.set(subject, row);
  }
  return [...rows.values()];
}

/**
 * The selection after ticking or clearing one box of a row. Managing a subject needs seeing it, so
 * ticking Manage ticks View (when grantable), and clearing View clears Manage.
 */
export function toggle(
  selected: ReadonlySet<string>,
  row: PermissionRow,
  which: 'view' | 'change',
  checked: boolean,
): Set<string> {
  const next = new Set(selected);
  const target = row[which];
  if (!target?.grantable) return next;
  if (checked) {
    next.add(target.name);
    if (which === 'change' && row.view?.grantable && row.change?.name.startsWith('MANAGE_')) {
      next.add(row.view.name);
    }
  } else {
    next.delete(target.name);
    if (which === 'view' && row.change?.grantable && row.change.name.startsWith('MANAGE_')) {
      next.delete(row.change.name);
    }
  }
  return next;
}

/** Every grantable permission of a group ticked, or all of them cleared when they already are. */
export function toggleGroup(selected: ReadonlySet<string>, permissions: readonly OfferedPermission[]) {
  const grantable = permissions.filter((permission) => permission.grantable).map((p) => p.name);
  const next = new Set(selected);
  const all = grantable.every((name) => next.has(name));
  for (const name of grantable) {
    if (all) next.delete(name);
    else next.add(name);
  }
  return next;
}

/**
 * What a form filled from a role (a clone, an edit) starts with: the role's permissions the viewer
 * may grant. A clone of a stronger role silently losing what cannot be granted would surprise, so
 * the form lists what it left out.
 */
export function initialSelection(
  rolePermissions: readonly string[],
  offered: readonly OfferedPermission[],
): { selected: Set<string>; left: string[] } {
  const grantable = new Set(offered.filter((p) => p.grantable).map((p) => p.name));
  const selected = new Set<string>();
  const left: string[] = [];
  for (const name of rolePermissions) {
    if (grantable.has(name)) selected.add(name);
    else left.push(name);
  }
  return { selected, left };
}
