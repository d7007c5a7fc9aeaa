import { type Expression, sql } from 'kysely';
import { isPermissionName } from '../../contract/permissions.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * What a user holds, for every rule that compares permissions (decision 018 §3.3): the distinct
 * permission names of the user's roles, archived roles excluded, as one subquery. The caller's own
 * permissions on every request and a user's record read this one definition.
 */
export function effectivePermissions(userId: Expression<string>) {
  return sql<string[]>`(
    select coalesce(jsonb_agg(distinct granted.name), '[]'::jsonb)
    from user_roles
    join roles on roles.id = user_roles.role_id and not roles.archived
    cross join lateral jsonb_array_elements_text(roles.permissions) as granted(name)
    where user_roles.user_id = ${userId}
  )`;
}

/**
 * G4: a caller changes another user only when every permission that user holds (`effectivePermissions`,
 * read with the user) is also the caller's, else 403 `userExceedsYours`; so nobody weakens someone
 * stronger (revokes their tokens, disables them).
 */
export function assertNotStronger(principal: Principal, targetPermissions: readonly string[]): void {
  if (targetPermissions.filter(isPermissionName).every((name) => principal.permissions.has(name))) return;
  throw new ApiError(403, 'This user holds permissions you do not hold.', { code: 'userExceedsYours' });
}
