import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { APPLICATIONS } from '../../contract/applications.ts';
import type { ApplicationCode, BuiltInRoleCode, PermissionGroupId } from '../../contract/permissions.ts';

/*
 * Words for roles, applications and permissions that several features show (the profile, the
 * administrators, the roles): one table each, so a built-in role reads the same everywhere.
 */

/**
 * Product names are not translated; they are the same in every language, and the same as the API's
 * titles: one table, `contract/applications.ts`.
 */
export const APPLICATION_NAMES = Object.fromEntries(
  Object.entries(APPLICATIONS).map(([code, application]) => [code, application.name]),
) as Readonly<Record<ApplicationCode, string>>;

/** Built-in roles keep their English names in the database and are shown translated by their code (decision 035 §2). */
export const BUILT_IN_ROLE_LABELS: Readonly<Record<BuiltInRoleCode, MessageDescriptor>> = {
  system_administrator: msg`System administrator`,
  partner_administrator: msg`Partner administrator`,
  account_administrator: msg`Account administrator`,
  read_only_auditor: msg`Read-only auditor`,
};

function isBuiltInRoleCode(code: string): code is BuiltInRoleCode {
  return Object.hasOwn(BUILT_IN_ROLE_LABELS, code);
}

/** A role's name as the viewer reads it: a built-in role's in their language, a custom role's as its account named it. */
export function roleDisplayName(role: { name: string; code: string | null }, i18n: I18n): string {
  return role.code !== null && isBuiltInRoleCode(role.code)
    ? i18n._(BUILT_IN_ROLE_LABELS[role.code])
    : role.name;
}

/** The permission groups of the role form, by their id (contract/permissions.ts). */
export const PERMISSION_GROUP_LABELS: Readonly<Record<PermissionGroupId, MessageDescriptor>> = {
  accounts_licences: msg`Accounts and licences`,
  users_roles: msg`Users and roles`,
  organizations: msg`Organizations`,
  certificates_enrollment: msg`Certificates and enrollment`,
  audit: msg`Audit`,
  platform_settings: msg`Platform settings`,
};

/** What a permission is about: the part of its name after VIEW_, MANAGE_ or REVOKE_. */
export const PERMISSION_SUBJECT_LABELS: Readonly<Record<string, MessageDescriptor>> = {
  TENANT: msg`Tenants`,
  ACCOUNT: msg`Accounts`,
  SEAT: msg`Seats`,
  LICENSE: msg`Licences`,
  LICENSED_SEATS: msg`Licensed seats`,
  CM_LICENSE: msg`CM licences`,
  IOT_LICENSE: msg`IoT licences`,
  EM_LICENSE: msg`EM licences`,
  SM_LICENSE: msg`SM licences`,
  DSM_LICENSE: msg`DSM licences`,
  AM_LICENSE: msg`AM licences`,
  TM_LICENSE: msg`TM licences`,
  DEVCTM_LICENSE: msg`DEVCTM licences`,
  USER: msg`Users`,
  ACCOUNT_USER: msg`Account users`,
  PARTNER_USER: msg`Partner users`,
  SYSTEM_USER: msg`System users`,
  USER_ROLE: msg`User roles`,
  PERMISSION: msg`Permissions`,
  ORGANIZATION: msg`Organizations`,
  CA: msg`Certificate authorities`,
  ENROLLMENT: msg`Enrollment`,
  PROFILE: msg`Certificate profiles`,
  TEMPLATE: msg`Templates`,
  CERTIFICATE: msg`Certificates`,
  AUDIT_LOG: msg`Audit log`,
  SYSTEM_SETTINGS: msg`System settings`,
};

/** The verbs a permission name starts with. */
export const PERMISSION_ACTIONS = ['VIEW', 'MANAGE', 'REVOKE'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

export const PERMISSION_ACTION_LABELS: Readonly<Record<PermissionAction, MessageDescriptor>> = {
  VIEW: msg`View`,
  MANAGE: msg`Manage`,
  REVOKE: msg`Revoke`,
};

/** `MANAGE_AUDIT_LOG` → `{ action: 'MANAGE', subject: 'AUDIT_LOG' }`. */
export function splitPermission(name: string): { action: PermissionAction; subject: string } {
  const action = PERMISSION_ACTIONS.find((verb) => name.startsWith(`${verb}_`)) ?? 'VIEW';
  return { action, subject: name.slice(action.length + 1) };
}

/** A permission's subject in the viewer's language; an unknown one by its name. */
export function permissionSubjectLabel(subject: string, i18n: I18n): string {
  const label = PERMISSION_SUBJECT_LABELS[subject];
  return label ? i18n._(label) : subject;
}

/** A permission as a sentence: "Manage: Audit log". */
export function permissionLabel(name: string, i18n: I18n): string {
  const { action, subject } = splitPermission(name);
  const verb = i18n._(PERMISSION_ACTION_LABELS[action]);
  const what = permissionSubjectLabel(subject, i18n);
  return i18n._(msg`${verb}: ${what}`);
}
