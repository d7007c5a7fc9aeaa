import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type AccessScope, APPLICATION_CODES, isPermissionName } from '../../contract/permissions.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import {
  SERVICE_USER_STATUSES,
  type ServiceUser,
  type ServiceUserListQuery,
  type ServiceUserStatus,
  type ServiceUserSummary,
} from '../../contract/schemas/service-users.ts';
import type { ServiceUserSortColumn } from '../../contract/sort-columns.ts';
import type { TokenOwner } from '../api-tokens/index.ts';
import { visibleTo } from '../authorization/account-reach.ts';
import { effectivePermissions } from '../authorization/grants.ts';
import { reachesUsersOf, userReach } from '../authorization/user-reach.ts';
import { utcDate } from '../dates.ts';
import type { SortKeys } from '../db/keyset.ts';
import { containsPattern } from '../db/like.ts';
import { type ListPageOf, listPage, type PageRequest } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import { oneOf } from '../db/stored-values.ts';
import type { Principal } from '../identity/principal.ts';
import { accessScopeOf } from '../identity/sessions.ts';
import { insertUser } from '../users/index.ts';

/**
 * Service users as stored (decision 018 §2): a `users` row of kind `service` (name, e-mail, enabled
 * state, scope, accounts, roles) and its `service_users` row (description, end date). Every read goes
 * through the caller's reach (`userReach`) first, so a service user out of reach is answered 404 and
 * never counted, sorted or exported.
 */

export type ServiceUserFilters = Omit<ServiceUserListQuery, 'limit' | 'offset' | 'sort'>;

export const DEFAULT_SORT: SortOrder<ServiceUserSortColumn> = { column: 'name', direction: 'asc' };

/** The derived status (decision 018 §1): disabled, expired after its end date (UTC), else enabled. */
export function statusOf(today: string) {
  return sql<string>`case
    when not ${sql.ref('users.active')} then 'disabled'
    when ${sql.ref('service_users.end_date')} is not null and ${sql.ref('service_users.end_date')} < ${today}::date then 'expired'
    else 'enabled' end`;
}

/** When any of the service user's tokens was last used. */
export const lastUsedOf = sql<Date | null>`(
  select max(t.last_used_at) from api_tokens t where t.user_id = ${sql.ref('users.id')}
)`;

/** Its roles that are not archived, `{id, name, code}` in name order (`code` null for custom roles). */
const rolesOf = sql<{ id: string; name: string; code: string | null }[]>`(
  select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'name', r.name, 'code', r.code) order by lower(r.name), r.id), '[]'::jsonb)
  from user_roles ur join roles r on r.id = ur.role_id and not r.archived
  where ur.user_id = ${sql.ref('users.id')}
)`;

/** Sort keys per column, before the `id` tie-breaker; none is ever null (keyset exports need that). */
export function sortKeys(column: ServiceUserSortColumn, today: string): SortKeys {
  const name = sql.ref('users.user_name_key');
  const keys: Record<ServiceUserSortColumn, readonly RawBuilder<unknown>[]> = {
    name: [name],
    account: [sql`lower(${sql.ref('accounts.name')})`, name],
    status: [statusOf(today), name],
    end_date: [sql`coalesce(${sql.ref('service_users.end_date')}, 'infinity'::date)`, name],
    last_used: [sql`coalesce(${lastUsedOf}, '-infinity'::timestamptz)`, name],
    created: [sql.ref('users.created_at')],
  };
  return [...keys[column], sql.ref('users.id')];
}

/** The service users `principal` reaches, with their primary accounts. */
function reachableServiceUsers(db: Kysely<Database>, principal: Principal) {
  return db
    .selectFrom('users')
    .innerJoin('service_users', 'service_users.user_id', 'users.id')
    .innerJoin('accounts', 'accounts.id', 'users.primary_account_id')
    .where(userReach(principal))
    .where('users.kind', '=', 'service');
}

export function filteredServiceUsers(
  db: Kysely<Database>,
  principal: Principal,
  filters: ServiceUserFilters,
  today: string,
) {
  let query = reachableServiceUsers(db, principal);
  if (filters.q) {
    const pattern = containsPattern(filters.q.toLowerCase());
    query = query.where((eb) =>
      eb.or([
        eb('users.user_name_key', 'like', pattern),
        eb(sql`lower(${sql.ref('users.email')})`, 'like', pattern),
        eb(sql`lower(${sql.ref('service_users.description')})`, 'like', pattern),
      ]),
    );
  }
  if (filters.status !== undefined) query = query.where(statusOf(today), '=', filters.status);
  if (filters.account_id !== undefined) {
    query = query.where('users.primary_account_id', '=', filters.account_id);
  }
  return query;
}

type Filtered = ReturnType<typeof filteredServiceUsers>;

function selectSummary(query: Filtered, today: string) {
  return query.select([
    'users.id',
    'users.user_name',
    'service_users.description',
    'users.email',
    'service_users.end_date',
    statusOf(today).as('status'),
    'accounts.id as account_id',
    'accounts.name as account_name',
    rolesOf.as('roles'),
    lastUsedOf.as('last_used_at'),
    'users.created_at',
    'users.version',
  ]);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectSummary>['execute']>>[number];

function toSummary(row: SummaryRow): ServiceUserSummary {
  return {
    id: row.id,
    name: row.user_name,
    description: row.description,
    email: row.email,
    end_date: row.end_date,
    status: oneOf<ServiceUserStatus>(SERVICE_USER_STATUSES, row.status, 'service user status'),
    primary_account: { id: row.account_id, name: row.account_name },
    roles: row.roles,
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
    created_at: row.created_at.toISOString(),
    version: row.version,
  };
}

/** One page of the service users the caller reaches, and how many match in all. */
export async function listServiceUsers(
  db: Kysely<Database>,
  principal: Principal,
  filters: ServiceUserFilters,
  page: PageRequest & { sort: SortOrder<ServiceUserSortColumn> },
  now: Date,
): Promise<ListPageOf<ServiceUserSummary>> {
  const today = utcDate(now);
  const { rows, ...total } = await listPage(
    {
      db,
      matching: filteredServiceUsers(db, principal, filters, today),
      keys: sortKeys(page.sort.column, today),
      direction: page.sort.direction,
      page,
    },
    (cut) => selectSummary(cut, today).execute(),
  );
  return { items: rows.map(toSummary), ...total };
}

/** A service user within reach, as the rules need it: scope, account, what it holds, its end date. */
export interface ReachableServiceUser {
  id: string;
  user_name: string;
  email: string;
  description: string;
  end_date: string | null;
  active: boolean;
  access_scope: AccessScope;
  primary_account_id: string;
  permissions: string[];
  version: number;
}

/** The service user `id` if `principal` reaches it; with `lock`, held until the transaction ends. */
export async function findReachableServiceUser(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  lock: boolean,
): Promise<ReachableServiceUser | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('service_users', 'service_users.user_id', 'users.id')
    .select((eb) => [
      'users.id',
      'users.user_name',
      'users.email',
      'service_users.description',
      'service_users.end_date',
      'users.active',
      'users.access_scope',
      'users.primary_account_id',
      'users.version',
      effectivePermissions(eb.ref('users.id')).as('permissions'),
    ])
    .where('users.id', '=', id)
    .where('users.kind', '=', 'service')
    .where(userReach(principal))
    .$if(lock, (query) => query.forUpdate(['users', 'service_users']))
    .executeTakeFirst();
  return row && { ...row, access_scope: accessScopeOf(row.access_scope) };
}

/** The service user `id` as the owner of API tokens (its routes under `service-user/{id}/api-tokens`). */
export async function findServiceTokenOwner(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  lock: boolean,
): Promise<(TokenOwner & { primary_account_id: string }) | undefined> {
  const row = await findReachableServiceUser(db, principal, id, lock);
  return (
    row && {
      id: row.id,
      access_scope: row.access_scope,
      permissions: row.permissions,
      primary_account_id: row.primary_account_id,
      end_date: row.end_date,
    }
  );
}

/**
 * The whole service user `id` (GET service-user/{id}), read once the route found it within reach.
 * Of its accounts it lists only those the caller sees, as the user record does.
 */
export async function serviceUserRecord(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  now: Date,
): Promise<ServiceUser | undefined> {
  const today = utcDate(now);
  const [row, accounts, roles] = await Promise.all([
    selectSummary(reachableServiceUsers(db, principal), today)
      .leftJoin('users as creator', 'creator.id', 'users.created_by')
      .select((eb) => [
        'users.active',
        'users.access_scope',
        'creator.id as creator_id',
        'creator.user_name as creator_name',
        effectivePermissions(eb.ref('users.id')).as('permissions'),
      ])
      .where('users.id', '=', id)
      .executeTakeFirst(),
    db
      .selectFrom('accounts')
      .select(['accounts.id', 'accounts.name'])
      .where((eb) =>
        eb.or([
          eb(
            'accounts.id',
            'in',
            eb.selectFrom('users').select('primary_account_id').where('users.id', '=', id),
          ),
          eb(
            'accounts.id',
            'in',
            eb.selectFrom('user_accounts').select('account_id').where('user_id', '=', id),
          ),
        ]),
      )
      .where(visibleTo(principal))
      .orderBy('accounts.name')
      .execute(),
    db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name', 'roles.code', 'roles.app_code', 'roles.account_id'])
      .where('user_roles.user_id', '=', id)
      .where('roles.archived', '=', false)
      .orderBy('roles.name')
      .orderBy('roles.id')
      .execute(),
  ]);
  if (!row) return undefined;
  const summary = toSummary(row);
  return {
    ...summary,
    enabled: row.active,
    access_scope: accessScopeOf(row.access_scope),
    accounts: accounts.sort(
      (a, b) => Number(b.id === summary.primary_account.id) - Number(a.id === summary.primary_account.id),
    ),
    roles: roles.map((role) => ({
      id: role.id,
      name: role.name,
      code: role.code,
      app_code: oneOf(APPLICATION_CODES, role.app_code, 'application'),
      built_in: role.account_id === null,
    })),
    permissions: row.permissions.filter(isPermissionName).sort(),
    created_by:
      row.creator_id === null || row.creator_name === null
        ? null
        : { id: row.creator_id, name: row.creator_name },
  };
}

export interface ServiceUserToCreate {
  name: string;
  description: string;
  email: string;
  endDate: string | null;
  accessScope: AccessScope;
  primaryAccountId: string;
  accountIds: readonly string[];
  roleIds: readonly string[];
  createdBy: string;
  now: Date;
}

/**
 * Inserts a service user: its `users` row through the one user insert (kind `service`, no password,
 * names empty, e-mail counted as verified since no mail is ever sent to it), with its accounts and
 * roles, and its `service_users` row. Answers the new id.
 */
export async function insertServiceUser(db: Kysely<Database>, user: ServiceUserToCreate): Promise<string> {
  const id = await insertUser(db, {
    kind: 'service',
    userName: user.name,
    firstName: '',
    lastName: '',
    email: user.email,
    accessScope: user.accessScope,
    primaryAccountId: user.primaryAccountId,
    accountIds: user.accountIds,
    passwordHash: null,
    roleIds: [...new Set(user.roleIds)],
    emailVerified: true,
    createdBy: user.createdBy,
    now: user.now,
  });
  await db
    .insertInto('service_users')
    .values({ user_id: id, description: user.description, end_date: user.endDate })
    .execute();
  return id;
}

/** Writes a service user's name, address and own fields, its version moved on. */
export async function updateServiceUser(
  db: Kysely<Database>,
  id: string,
  fields: { name: string; email: string; description: string; end_date: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      user_name: fields.name,
      user_name_key: fields.name.toLowerCase(),
      email: fields.email,
      updated_at: now,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id)
    .execute();
  await db
    .updateTable('service_users')
    .set({ description: fields.description, end_date: fields.end_date })
    .where('user_id', '=', id)
    .execute();
}

/** Enables or disables a service user, its version moved on. */
export async function setServiceUserEnabled(
  db: Kysely<Database>,
  id: string,
  enabled: boolean,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ active: enabled, updated_at: now, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** The account a service user is made in, when the caller reaches its users. */
export function findAccountForUsers(db: Kysely<Database>, principal: Principal, accountId: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'type'])
    .where('accounts.id', '=', accountId)
    .where(reachesUsersOf(principal))
    .executeTakeFirst();
}

/** Removes a service user; its tokens, accounts, roles and `service_users` row go with it (cascades). */
export async function deleteServiceUser(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).where('kind', '=', 'service').execute();
}
