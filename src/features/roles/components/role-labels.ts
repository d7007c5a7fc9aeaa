import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Role } from '../../../../contract/schemas/users.ts';

export const ROLE_TYPE_LABELS: Readonly<Record<'built_in' | 'custom', MessageDescriptor>> = {
  built_in: msg`Built-in`,
  custom: msg`Custom`,
};

export const ROLE_STATUS_LABELS: Readonly<Record<Role['status'], MessageDescriptor>> = {
  active: msg`Active`,
  archived: msg`Archived`,
};

export function roleTypeOf(role: Pick<Role, 'built_in'>): 'built_in' | 'custom' {
  return role.built_in ? 'built_in' : 'custom';
}
