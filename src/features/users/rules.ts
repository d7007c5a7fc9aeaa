import type { AccessScope, PermissionFlag, PermissionFlags } from '../../../contract/permissions.ts';
import type { Profile } from '../../../contract/schemas/profile.ts';
import type { Role, UserStatus } from '../../../contract/schemas/users.ts';

/**
 * What the console offers on a user, by the rules the server checks (decision 018 §3.2, §3.3): the
 * page shows each action disabled with its reason rather than an action the server would refuse.
 * The server decides every call regardless.
 */
export type RefusalReason = 'oneself' | 'permission' | 'stronger' | 'status';

/** The permission that changing a user of this scope takes beside MANAGE_USER (§3.2). */
export const MANAGE_SCOPE_FLAG: Readonly<Record<AccessScope, PermissionFlag>> = {
  system: 'canManageSystemUser',
  partner: 'canManagePartnerUser',
  account: 'canManageAccountUser',
};

/** G2: the caller may change users of `scope`. */
export function mayManageScope(flags: PermissionFlags, scope: AccessScope): boolean {
  return flags.canManageUser && flags[MANAGE_SCOPE_FLAG[scope]];
}

/** Whether the caller may open the create page at all: some scope it may create users in. */
export function mayCreateUsers(flags: PermissionFlags): boolean {
  return (['system', 'partner', 'account'] as const).some((scope) => mayManageScope(flags, scope));
}

/** What the caller holds, by permission name (the profile's effective permissions). */
export function heldPermissions(profile: Profile): ReadonlySet<string> {
  return new Set(profile.permissions.map((permission) => permission.name));
}

/** G5: a role is grantable when the caller holds everything it grants. */
export function isGrantable(role: Pick<Role, 'permissions'>, held: ReadonlySet<string>): boolean {
  return role.permissions.every((name) => held.has(name));
}

/**
 * G4 from what is known of the target: its effective permissions, or `null` when unknown (a list row
 * whose roles are not all loaded), in which case the server decides.
 */
export function isStronger(targetPermissions: Iterable<string> | null, held: ReadonlySet<string>): boolean {
  if (targetPermissions === null) return false;
  for (const name of targetPermissions) if (!held.has(name)) return true;
  return false;
}

/** A list row's effective permissions from its roles, when every one of them is among `roles`. */
export function permissionsOfRoles(
  roleIds: readonly string[],
  roles: readonly Pick<Role, 'id' | 'permissions'>[] | undefined,
): string[] | null {
  if (roles === undefined) return null;
  const names: string[] = [];
  for (const id of roleIds) {
    const role = roles.find((candidate) => candidate.id === id);
    if (!role) return null;
    names.push(...role.permissions);
  }
  return names;
}

/** The user actions of the row menu and the details page (decision 039 §4). */
export const USER_ACTIONS = [
  'view',
  'edit',
  'editRoles',
  'enable',
  'disable',
  'verification',
  'passwordReset',
  'mfa',
  'unlock',
  'standardLogin',
  'ssoEmail',
  'delete',
] as const;
export type UserActionName = (typeof USER_ACTIONS)[number];

export interface ActionTarget {
  id: string;
  access_scope: AccessScope;
  status: UserStatus;
  email_verified: boolean;
  /** Known for the details page only; the row menu offers the mails the server may refuse (409). */
  sso?: boolean;
  mfa?: { enrolled: boolean; locked: boolean };
  hasPassword?: boolean;
}

export interface ActionAvailability {
  name: UserActionName;
  /** Null when offered; otherwise why not, shown beside the disabled action. */
  refusal: RefusalReason | null;
}

/** The actions offered on `target` in menu order, each with the reason it is refused, if it is. */
export function userActions(
  target: ActionTarget,
  viewer: Pick<Profile, 'id'>,
  flags: PermissionFlags,
  stronger: boolean,
): ActionAvailability[] {
  const own = target.id === viewer.id;
  const change: RefusalReason | null = !mayManageScope(flags, target.access_scope)
    ? 'permission'
    : stronger
      ? 'stronger'
      : null;
  // G3: nobody changes their own roles, enabled state or two-factor, or deletes themselves.
  const notOwn: RefusalReason | null = own ? 'oneself' : change;
  const names: UserActionName[] = ['view', 'edit', 'editRoles'];
  names.push(target.status === 'disabled' ? 'enable' : 'disable');
  if (target.status === 'pending' || !target.email_verified) names.push('verification');
  names.push('passwordReset');
  names.push(target.mfa?.locked ? 'unlock' : 'mfa');
  if (target.hasPassword !== true) names.push('standardLogin');
  if (target.sso !== false) names.push('ssoEmail');
  names.push('delete');
  return names.map((name) => {
    switch (name) {
      case 'view':
        return { name, refusal: null };
      // One's own fields change on the own profile, which Edit then opens.
      case 'edit':
        return { name, refusal: own ? null : change };
      case 'verification':
      case 'passwordReset':
        return { name, refusal: own ? null : change };
      case 'mfa':
        return { name, refusal: target.mfa && !target.mfa.enrolled ? 'status' : notOwn };
      default:
        return { name, refusal: notOwn };
    }
  });
}
