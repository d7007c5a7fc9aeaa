import type { I18n } from '@lingui/core';
import type { Role } from '../../../../contract/schemas/users.ts';
import { APPLICATION_NAMES, roleDisplayName } from '../../../components/role-labels.ts';
import type { ApplicationGroup, RoleChoice } from '../../../components/role-picker.tsx';

/** Every value of the checkboxes under `name`, as `FormData` has them. */
export function checkedValues(form: HTMLFormElement | null, name: string): string[] {
  if (!form) return [];
  return new FormData(form).getAll(name).filter((value): value is string => typeof value === 'string');
}

/**
 * The roles the picker offers a service user: built-in roles by their translated names and custom
 * ones as named, each grantable only when the caller holds everything it grants (G5).
 */
export function roleChoices(
  roles: readonly Role[],
  held: ReadonlySet<string>,
  i18n: I18n,
): { choices: RoleChoice[]; applications: ApplicationGroup[] } {
  const choices = roles.map((role) => ({
    id: role.id,
    name: roleDisplayName(role, i18n),
    app_code: role.app_code,
    built_in: role.built_in,
    grantable: role.permissions.every((permission) => held.has(permission)),
  }));
  const codes = [...new Set(roles.map((role) => role.app_code))];
  return { choices, applications: codes.map((code) => ({ code, name: APPLICATION_NAMES[code] })) };
}
