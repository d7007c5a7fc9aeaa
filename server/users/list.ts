import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { SortOrder } from '../../contract/schemas/query.ts';
import {
  USER_STATUSES,
  type UserListQuery,
  type UserStatus,
  type UserSummary,
} from '../../contract/schemas/users.ts';
import type { UserSortColumn } from '../../contract/sort-columns.ts';
import { userReach } from '../authorization/user-reach.ts';
import { orderByKeys, type SortKeys } from '../db/keyset.ts';
import { containsPattern } from '../db/like.ts';
import { type ListPageOf, listPage, type PageRequest } from '../db/list-page.ts';
import type { Database, User } from '../db/schema.ts';
import { oneOf } from '../db/stored-values.ts';
import type { Principal } from '../identity/principal.ts';
import { accessScopeOf } from '../identity/sessions.ts';

/** The list's filters; the paging and the sort order travel apart. */
export type UserFilters = Omit<UserListQuery, 'limit' | 'offset' | 'sort'>;

export const DEFAULT_SORT: SortOrder<UserSortColumn> = { column: 'name', direction: 'asc' };

/** The expressions of the list's indexes (migration `20261212T1000-users-read.ts`), over `u`. */
const fullNameKey = sql<string>`lower(${sql.ref('u.first_name')} || ' ' || ${sql.ref('u.last_name')})`;
const emailKey = sql<string>`lower(${sql.ref('u.email')})`;
const lastSignInKey = sql<Date>`coalesce(${sql.ref('u.last_sign_in_at')}, '-infinity'::timestamptz)`;

/** The derived status (decision 018 §1), as the filter and the sort read it. */
export const statusOf = sql<string>`case
  when not ${sql.ref('u.active')} then 'disabled'
  when ${sql.ref('u.password_hash')} is null and ${sql.ref('u.email_verified_at')} is null then 'pending'
  else 'active' end`;

/**
 * Sort keys per column, before the `id` tie-breaker. Secondary keys keep equal rows in name order.
 * Status sorts as its word ("active" < "disabled" < "pending"), as the accounts list sorts its own.
 */
const SORT_KEYS: Record<UserSortColumn, readonly RawBuilder<unknown>[]> = {
  name: [fullNameKey],
  user_name: [sql.ref('u.user_name_key')],
  email: [emailKey],
  account: [sql`lower(${sql.ref('a.name')})`, fullNameKey],
  status: [statusOf, fullNameKey],
  last_sign_in: [lastSignInKey],
  created: [sql.ref('u.created_at')],
};

export function sortKeys(column: UserSortColumn): SortKeys {
  return [...SORT_KEYS[column], sql.ref('u.id')];
}

/**
 * The users `principal` reaches, as a table to select from. The reach is the innermost clause, so
 * every filter, sort and count below sees reachable users only. For partner and account scope,
 * `offset 0` keeps the planner from walking a sort index over every user in search of the few
 * reachable ones, as the accounts list does.
 */
function reachableUsers(db: Kysely<Database>, principal: Principal) {
  // People only: service users have their own list (GET service-user).
  const reached = db
    .selectFrom('users')
    .selectAll()
    .where(userReach(principal))
    .where('users.kind', '=', 'person');
  return principal.accessScope === 'system' ? reached : reached.offset(0);
}

/** The whole users `rows` selects, as table `u` joined to their primary account `a`. */
export function withPrimaryAccount<DB, TB extends keyof DB>(
  db: Kysely<Database>,
  rows: SelectQueryBuilder<DB, TB, User>,
) {
  return db.selectFrom(rows.as('u')).innerJoin('accounts as a', 'a.id', 'u.primary_account_id');
}

/** The reachable users narrowed by the list's filters; ids out of reach are refused by the route first. */
export function filteredUsers(db: Kysely<Database>, principal: Principal, filters: UserFilters) {
  let query = db.selectFrom(reachableUsers(db, principal).as('u'));
  if (filters.q) {
    // Each side is the expression of a trigram index; the pattern is lowered to match them.
    const pattern = containsPattern(filters.q.toLowerCase());
    query = query.where((eb) =>
      eb.or([
        eb('u.user_name_key', 'like', pattern),
        eb(emailKey, 'like', pattern),
        eb(fullNameKey, 'like', pattern),
      ]),
    );
  }
  if (filters.status !== undefined) query = query.where(statusOf, '=', filters.status);
  if (filters.scope !== undefined) query = query.where('u.access_scope', '=', filters.scope);
  if (filters.account_id !== undefined) query = query.where('u.primary_account_id', '=', filters.account_id);
  const roleId = filters.role_id;
  if (roleId !== undefined) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('user_roles')
          .select('user_roles.role_id')
          .whereRef('user_roles.user_id', '=', 'u.id')
          .where('user_roles.role_id', '=', roleId),
      ),
    );
  }
  return query;
}

type FilteredUsers = ReturnType<typeof filteredUsers>;

/** The filtered users with their primary account `a`, for sorting by its name. */
function withAccountName(filtered: FilteredUsers) {
  return filtered.innerJoin('accounts as a', 'a.id', 'u.primary_account_id');
}

/** The user's roles that are not archived, `{id, name, code}` in name order, as one subquery. */
const rolesOf = sql<{ id: string; name: string; code: string | null }[]>`(
  select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'name', r.name, 'code', r.code) order by lower(r.name), r.id), '[]'::jsonb)
  from user_roles ur join roles r on r.id = ur.role_id and not r.archived
  where ur.user_id = ${sql.ref('u.id')}
)`;

/** The columns of a UserSummary, read from the users of `rows` and their primary accounts. */
function selectSummary<DB, TB extends keyof DB>(
  db: Kysely<Database>,
  rows: SelectQueryBuilder<DB, TB, User>,
) {
  return withPrimaryAccount(db, rows).select([
    'u.id',
    'u.first_name',
    'u.last_name',
    'u.user_name',
    'u.email',
    'u.access_scope',
    'a.id as account_id',
    'a.name as account_name',
    statusOf.as('status'),
    'u.email_verified_at',
    rolesOf.as('roles'),
    'u.last_sign_in_at',
    'u.created_at',
    'u.version',
  ]);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectSummary>['execute']>>[number];

function toUserSummary(row: SummaryRow): UserSummary {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    user_name: row.user_name,
    email: row.email,
    access_scope: accessScopeOf(row.access_scope),
    primary_account: { id: row.account_id, name: row.account_name },
    status: oneOf<UserStatus>(USER_STATUSES, row.status, 'user status'),
    email_verified: row.email_verified_at !== null,
    roles: row.roles,
    last_sign_in_at: row.last_sign_in_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    version: row.version,
  };
}

export interface ListPage extends PageRequest {
  sort: SortOrder<UserSortColumn>;
}

/** One page of the users the caller reaches and how many match (bounded: decision 024). */
export async function listUsers(
  db: Kysely<Database>,
  principal: Principal,
  filters: UserFilters,
  page: ListPage,
): Promise<ListPageOf<UserSummary>> {
  const filtered = filteredUsers(db, principal, filters);
  const keys = sortKeys(page.sort.column);
  // The page is cut from the users before they are joined to their accounts (which only the account
  // sort needs first): PostgreSQL never moves a limit below a join, and joining every match before
  // sorting cost as much again as finding them (measured at 100,000 users).
  const matching = page.sort.column === 'account' ? withAccountName(filtered) : filtered;
  const { rows, ...total } = await listPage(
    { db, matching, keys, direction: page.sort.direction, page },
    (cut) => orderByKeys(selectSummary(db, cut.selectAll('u')), keys, page.sort.direction).execute(),
  );
  return { items: rows.map(toUserSummary), ...total };
}
