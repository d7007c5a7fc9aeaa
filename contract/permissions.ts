/**
 * Permission names and the flags the console derives from them (overview §3, §6). The spec names the
 * flags but not the names or roles; ours are documented in docs/decisions/004-permissions-and-roles.md.
 */
export const ACCESS_SCOPES = ['system', 'partner', 'account'] as const;
export type AccessScope = (typeof ACCESS_SCOPES)[number];

export const APPLICATION_CODES = [
  'account_manager',
  'ca_manager',
  'secure_software_manager',
  'device_manager',
  'enterprise_manager',
  'document_signing_manager',
  'discovery_automation_manager',
  'device_trust_manager',
] as const;
export type ApplicationCode = (typeof APPLICATION_CODES)[number];

/** Subjects that have a view and a manage permission each. */
const VIEW_MANAGE_SUBJECTS = {
  TENANT: 'Tenant',
  USER: 'User',
  SYSTEM_USER: 'SystemUser',
  ACCOUNT_USER: 'AccountUser',
  PARTNER_USER: 'PartnerUser',
  ACCOUNT: 'Account',
  ORGANIZATION: 'Organization',
  PERMISSION: 'Permission',
  SEAT: 'Seat',
  ENROLLMENT: 'Enrollment',
  CA: 'Ca',
  PROFILE: 'Profile',
  LICENSE: 'License',
  LICENSED_SEATS: 'LicensedSeats',
  TEMPLATE: 'Template',
  AUDIT_LOG: 'AuditLog',
  SYSTEM_SETTINGS: 'SystemSettings',
  USER_ROLE: 'UserRole',
} as const;

/** Licence permissions per product (overview §3 lists AM too; account administration §6 omits it). */
export const LICENCE_PRODUCTS = {
  CM: 'Cm',
  IOT: 'Iot',
  EM: 'Em',
  SM: 'Sm',
  DSM: 'Dsm',
  AM: 'Am',
  TM: 'Tm',
  DEVCTM: 'Devctm',
} as const;

type ViewManageSubject = keyof typeof VIEW_MANAGE_SUBJECTS;
type LicenceProduct = keyof typeof LICENCE_PRODUCTS;

export type PermissionName =
  | `VIEW_${ViewManageSubject}`
  | `MANAGE_${ViewManageSubject}`
  | 'VIEW_CERTIFICATE'
  | 'REVOKE_CERTIFICATE'
  | `VIEW_${LicenceProduct}_LICENSE`
  | `MANAGE_${LicenceProduct}_LICENSE`;

type FlagOf<Name extends string> = Name extends `VIEW_${infer S extends ViewManageSubject}`
  ? `canView${(typeof VIEW_MANAGE_SUBJECTS)[S]}`
  : Name extends `MANAGE_${infer S extends ViewManageSubject}`
    ? `canManage${(typeof VIEW_MANAGE_SUBJECTS)[S]}`
    : Name extends `VIEW_${infer P extends LicenceProduct}_LICENSE`
      ? `canView${(typeof LICENCE_PRODUCTS)[P]}License`
      : Name extends `MANAGE_${infer P extends LicenceProduct}_LICENSE`
        ? `canManage${(typeof LICENCE_PRODUCTS)[P]}License`
        : Name extends 'VIEW_CERTIFICATE'
          ? 'canViewCertificate'
          : 'canRevokeCertificate';

export type PermissionFlag = FlagOf<PermissionName>;
export type PermissionFlags = Record<PermissionFlag, boolean>;

function buildPermissionTable(): ReadonlyMap<PermissionName, PermissionFlag> {
  const table = new Map<string, string>();
  for (const [subject, suffix] of Object.entries(VIEW_MANAGE_SUBJECTS)) {
    table.set(`VIEW_${subject}`, `canView${suffix}`);
    table.set(`MANAGE_${subject}`, `canManage${suffix}`);
  }
  table.set('VIEW_CERTIFICATE', 'canViewCertificate');
  table.set('REVOKE_CERTIFICATE', 'canRevokeCertificate');
  for (const [product, suffix] of Object.entries(LICENCE_PRODUCTS)) {
    table.set(`VIEW_${product}_LICENSE`, `canView${suffix}License`);
    table.set(`MANAGE_${product}_LICENSE`, `canManage${suffix}License`);
  }
  return table as ReadonlyMap<PermissionName, PermissionFlag>;
}

function viewAndManage(...subjects: ViewManageSubject[]): PermissionName[] {
  return subjects.flatMap((subject): PermissionName[] => [`VIEW_${subject}`, `MANAGE_${subject}`]);
}

/** Groups of the role form's permission picker; the console translates each group's name from its id. */
export const PERMISSION_GROUP_IDS = [
  'accounts_licences',
  'users_roles',
  'organizations',
  'certificates_enrollment',
  'audit',
  'platform_settings',
] as const;
export type PermissionGroupId = (typeof PERMISSION_GROUP_IDS)[number];

export interface PermissionGroup {
  id: PermissionGroupId;
  permissions: readonly PermissionName[];
}

/**
 * The permissions each application's roles may grant, in groups (decision 035 §2). Every
 * permission belongs to the account-management application; the other applications bring no
 * catalogue yet, so a role for them could grant nothing.
 */
export const PERMISSION_GROUPS: Readonly<Record<ApplicationCode, readonly PermissionGroup[]>> = {
  account_manager: [
    {
      id: 'accounts_licences',
      permissions: [
        ...viewAndManage('TENANT', 'ACCOUNT', 'SEAT', 'LICENSE', 'LICENSED_SEATS'),
        ...(Object.keys(LICENCE_PRODUCTS) as LicenceProduct[]).flatMap((product): PermissionName[] => [
          `VIEW_${product}_LICENSE`,
          `MANAGE_${product}_LICENSE`,
        ]),
      ],
    },
    {
      id: 'users_roles',
      permissions: viewAndManage(
        'USER',
        'ACCOUNT_USER',
        'PARTNER_USER',
        'SYSTEM_USER',
        'USER_ROLE',
        'PERMISSION',
      ),
    },
    { id: 'organizations', permissions: viewAndManage('ORGANIZATION') },
    {
      id: 'certificates_enrollment',
      permissions: [
        ...viewAndManage('CA', 'ENROLLMENT', 'PROFILE', 'TEMPLATE'),
        'VIEW_CERTIFICATE',
        'REVOKE_CERTIFICATE',
      ],
    },
    { id: 'audit', permissions: viewAndManage('AUDIT_LOG') },
    { id: 'platform_settings', permissions: viewAndManage('SYSTEM_SETTINGS') },
  ],
  ca_manager: [],
  secure_software_manager: [],
  device_manager: [],
  enterprise_manager: [],
  document_signing_manager: [],
  discovery_automation_manager: [],
  device_trust_manager: [],
};

/** Every permission name and its flag. */
export const PERMISSION_FLAGS: ReadonlyMap<PermissionName, PermissionFlag> = buildPermissionTable();
export const PERMISSION_NAMES: readonly PermissionName[] = [...PERMISSION_FLAGS.keys()];

export function isPermissionName(name: string): name is PermissionName {
  return PERMISSION_FLAGS.has(name as PermissionName);
}

/** Flags from the profile's permission names: every flag present, true only when its name is held. */
export function permissionFlagsFrom(names: Iterable<string>): PermissionFlags {
  const flags = Object.fromEntries(
    [...PERMISSION_FLAGS.values()].map((flag) => [flag, false]),
  ) as PermissionFlags;
  for (const name of names) {
    const flag = PERMISSION_FLAGS.get(name as PermissionName);
    if (flag) flags[flag] = true;
  }
  return flags;
}

/** True when every required flag is present and true (overview §6). */
export function hasEveryPermission(
  flags: Partial<PermissionFlags>,
  required: readonly PermissionFlag[],
): boolean {
  return required.every((flag) => flags[flag] === true);
}

const ALL_VIEW = PERMISSION_NAMES.filter((name) => name.startsWith('VIEW_'));

/**
 * The built-in roles of the account-management application. Custom roles arrive with the roles
 * issue; these four are what first-time setup and the seeds assign.
 */
export const BUILT_IN_ROLES = {
  system_administrator: {
    name: 'System administrator',
    scope: 'system',
    permissions: PERMISSION_NAMES,
  },
  partner_administrator: {
    name: 'Partner administrator',
    scope: 'partner',
    permissions: PERMISSION_NAMES.filter(
      (name) => !name.endsWith('_SYSTEM_SETTINGS') && !name.endsWith('_SYSTEM_USER') && !name.endsWith('_CA'),
    ),
  },
  account_administrator: {
    name: 'Account administrator',
    scope: 'account',
    permissions: [
      'VIEW_ACCOUNT',
      'VIEW_TENANT',
      'VIEW_USER',
      'MANAGE_USER',
      'VIEW_ACCOUNT_USER',
      'MANAGE_ACCOUNT_USER',
      'VIEW_ORGANIZATION',
      'MANAGE_ORGANIZATION',
      'VIEW_PROFILE',
      'MANAGE_PROFILE',
      'VIEW_USER_ROLE',
      'MANAGE_USER_ROLE',
      'VIEW_AUDIT_LOG',
      'VIEW_CERTIFICATE',
      'VIEW_ENROLLMENT',
      'MANAGE_ENROLLMENT',
      'VIEW_TEMPLATE',
      'VIEW_LICENSE',
      'VIEW_LICENSED_SEATS',
      // Its own account's licences, application by application (J-09): a licence section needs the
      // application's view permission, which VIEW_LICENSE alone is not.
      ...(Object.keys(LICENCE_PRODUCTS) as LicenceProduct[]).map(
        (product): PermissionName => `VIEW_${product}_LICENSE`,
      ),
    ] satisfies PermissionName[],
  },
  read_only_auditor: {
    name: 'Read-only auditor',
    scope: 'account',
    permissions: ALL_VIEW.filter((name) => !name.endsWith('_SYSTEM_SETTINGS')),
  },
} as const satisfies Record<
  string,
  { name: string; scope: AccessScope; permissions: readonly PermissionName[] }
>;
export type BuiltInRoleCode = keyof typeof BUILT_IN_ROLES;
