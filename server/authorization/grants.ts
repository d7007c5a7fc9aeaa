import { type Expression, sql } from 'kysely';

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
