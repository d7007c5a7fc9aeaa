import type { AccessScope, PermissionFlags } from '../../../contract/permissions.ts';
import type { Profile } from '../../../contract/schemas/profile.ts';

export type NavigationItemId =
  | 'accounts'
  | 'organizations'
  | 'certificateAuthority'
  | 'certificates'
  | 'enrollments'
  | 'certificateProfiles'
  | 'rootCa'
  | 'intermediateCa'
  | 'clientTools'
  | 'access'
  | 'administrators'
  | 'serviceUsers'
  | 'userRoles'
  | 'reporting'
  | 'logging'
  | 'platformSettings';

/** `to` is a console route; `href` an address outside the console (the external profile). */
export type NavigationTarget = { to: string } | { href: string };

export interface NavigationItem {
  id: NavigationItemId;
  target: NavigationTarget;
  children: NavigationItem[];
}

export interface NavigationInput {
  flags: PermissionFlags;
  scope: AccessScope;
  profile: Pick<Profile, 'has_onelogin_id' | 'onelogin_url'>;
  /** The roles feature does not exist yet; until it does the User roles item stays hidden (C-13). */
  rolesFeatureEnabled: boolean;
}

const item = (id: NavigationItemId, to: string, children: NavigationItem[] = []): NavigationItem => ({
  id,
  target: { to },
  children,
});

function accessItem({ flags, profile, rolesFeatureEnabled }: NavigationInput): NavigationItem {
  const managesUsers = flags.canViewUser || flags.canManageAccountUser || flags.canManageSystemUser;
  if (!managesUsers) {
    // Without user administration the item leads to the user's own profile (C-10, C-11).
    const external = profile.has_onelogin_id ? profile.onelogin_url : null;
    return { id: 'access', target: external ? { href: external } : { to: '/profile' }, children: [] };
  }
  const seesRoles = (flags.canViewUserRole || flags.canManageUserRole) && rolesFeatureEnabled;
  return item('access', '/access', [
    item('administrators', '/access/administrators'),
    item('serviceUsers', '/access/service-user'),
    ...(seesRoles ? [item('userRoles', '/access/manage-user-roles')] : []),
  ]);
}

/**
 * The certificate authority's pages, each behind its view permission (decision 019); Client tools
 * for everyone signed in, since the catalogue is public anyway.
 */
function certificateAuthorityItem({ flags }: NavigationInput): NavigationItem {
  const clientTools = item('clientTools', '/ca/client-tools');
  const children = [
    ...(flags.canViewCertificate ? [item('certificates', '/ca/certificates')] : []),
    ...(flags.canViewEnrollment ? [item('enrollments', '/ca/enrollments')] : []),
    ...(flags.canViewProfile || flags.canManageProfile ? [item('certificateProfiles', '/ca/profiles')] : []),
    ...(flags.canViewCa || flags.canManageCa
      ? [item('rootCa', '/ca/root'), item('intermediateCa', '/ca/intermediate')]
      : []),
    clientTools,
  ];
  return { id: 'certificateAuthority', target: (children[0] ?? clientTools).target, children };
}

/** The main navigation for a user, by the permission rules of overview §6 (C-02..C-13). */
export function navigationItems(input: NavigationInput): NavigationItem[] {
  const { flags, scope } = input;
  const items: NavigationItem[] = [];
  if (flags.canViewAccount || flags.canManageAccount) items.push(item('accounts', '/accounts'));
  if (flags.canViewOrganization || flags.canManageOrganization) {
    items.push(item('organizations', '/ca/organizations'));
  }
  items.push(certificateAuthorityItem(input));
  items.push(accessItem(input));
  if (flags.canViewAuditLog)
    items.push(item('reporting', '/reporting', [item('logging', '/reporting/logging')]));
  if (
    scope === 'system' &&
    (flags.canManageSystemSettings || flags.canViewLicense || flags.canManageLicense)
  ) {
    items.push(item('platformSettings', '/settings'));
  }
  return items;
}
