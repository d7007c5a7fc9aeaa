import { randomUUID } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { APPLICATION_CODES } from '../../contract/permissions.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { Role, RoleListQuery } from '../../contract/schemas/users.ts';
import type { RoleSortColumn } from '../../contract/sort-columns.ts';
import { roleReach, userReach } from '../authorization/user-reach.ts';
import type { SortKeys } from '../db/keyset.ts';
import { containsPattern } from '../db/like.ts';
import { type ListPageOf, listPage, type PageRequest } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import { oneOf } from '../db/stored-values.ts';
import type { Principal } from '../identity/principal.ts';

/** The list's filters; the paging and the sort order travel apart. */
export type RoleFilters = Omit<RoleListQuery, 'limit' | 'offset' | 'sort'>;

export const DEFAULT_SORT: SortOrder<RoleSortColumn> = { column: 'name', direction: 'asc' };

const lowerName = sql<string>`lower(${sql.ref('roles.name')})`;

/**
 * How many users hold the role of the row among those `principal` reaches (the reach clause of
 * `authorization/user-reach.ts`), over the unaliased `roles` table. Archived roles keep their
 * assignments, so they keep their count. The one definition of a role's `users_count`: the list, its
 * sort, the export and the details all read it.
 */
export function holdersCount(db: Kysely<Database>, principal: Principal): RawBuilder<number> {
  const reachedHolders = db
    .selectFrom('user_roles')
    .select(sql<number>`count(*)::int`.as('holders'))
    .where(sql<boolean>`${sql.ref('user_roles.role_id')} = ${sql.ref('roles.id')}`)
    .where('user_roles.user_id', 'in', db.selectFrom('users').select('users.id').where(userReach(principal)));
  return sql<number>`(${reachedHolders})`;
}

/** Sort keys per column, before the `id` tie-breaker; built-in roles (no account) sort before custom ones. */
export function sortKeys(db: Kysely<Database>, principal: Principal, column: RoleSortColumn): SortKeys {
  const keys: Record<RoleSortColumn, readonly RawBuilder<unknown>[]> = {
    name: [lowerName],
    application: [sql.ref('roles.app_code'), lowerName],
    type: [sql`(${sql.ref('roles.account_id')} is not null)`, lowerName],
    users: [holdersCount(db, principal), lowerName],
    created: [sql.ref('roles.created_at')],
  };
  return [...keys[column], sql.ref('roles.id')];
}

/** The roles `principal` reaches, narrowed by the list's filters; an account out of reach is refused first. */
export function filteredRoles(db: Kysely<Database>, principal: Principal, filters: RoleFilters) {
  let query = db.selectFrom('roles').where(roleReach(principal));
  if (filters.q) query = query.where('roles.name', 'ilike', containsPattern(filters.q));
  if (filters.application_id !== undefined)
    query = query.where('roles.app_code', '=', filters.application_id);
  const accountId = filters.account_id;
  if (accountId !== undefined) {
    // The roles a user of that account may hold: the built-in ones and the account's own.
    query = query.where((eb) =>
      eb.or([eb('roles.account_id', 'is', null), eb('roles.account_id', '=', accountId)]),
    );
  }
  if (filters.type !== undefined) {
    query = query.where('roles.account_id', filters.type === 'built_in' ? 'is' : 'is not', null);
  }
  if (filters.status !== undefined) query = query.where('roles.archived', '=', filters.status === 'archived');
  return query;
}

type FilteredRoles = ReturnType<typeof filteredRoles>;

/** The name of the role's account, null for built-in roles: a subquery rather than a join, so that the row can be locked (`for update`). */
export const accountNameOf = sql<
  string | null
>`(select ${sql.ref('accounts.name')} from accounts where ${sql.ref('accounts.id')} = ${sql.ref('roles.account_id')})`;

/** The columns of a Role, its holders counted within `principal`'s reach. */
function selectRole(db: Kysely<Database>, principal: Principal, query: FilteredRoles) {
  return query.select([
    'roles.id',
    'roles.name',
    'roles.code',
    'roles.app_code',
    'roles.account_id',
    accountNameOf.as('account_name'),
    'roles.archived',
    'roles.permissions',
    'roles.description',
    'roles.cloned_from',
    holdersCount(db, principal).as('users_count'),
    'roles.created_at',
    'roles.version',
  ]);
}

type RoleRow = Awaited<ReturnType<ReturnType<typeof selectRole>['execute']>>[number];

function toRole(row: RoleRow): Role {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    app_code: oneOf(APPLICATION_CODES, row.app_code, 'application'),
    account_id: row.account_id,
    account_name: row.account_name,
    built_in: row.account_id === null,
    status: row.archived ? 'archived' : 'active',
    permissions: row.permissions,
    description: row.description,
    cloned_from: row.cloned_from,
    users_count: row.users_count,
    created_at: row.created_at.toISOString(),
    version: row.version,
  };
}

export interface ListPage extends PageRequest {
  sort: SortOrder<RoleSortColumn>;
}

/** One page of the roles the caller reaches and how many match (bounded: decision 024). */
export async function listRoles(
  db: Kysely<Database>,
  principal: Principal,
  filters: RoleFilters,
  page: ListPage,
): Promise<ListPageOf<Role>> {
  const { rows, ...total } = await listPage(
    {
      db,
      matching: filteredRoles(db, principal, filters),
      keys: sortKeys(db, principal, page.sort.column),
      direction: page.sort.direction,
      page,
    },
    (cut) => selectRole(db, principal, cut).execute(),
  );
  return { items: rows.map(toRole), ...total };
}

/**
 * The role with `id` if the caller reaches it; with `lock`, locked for the rest of the transaction so
 * the checks made on it still hold when a change is written.
 */
export async function findReachableRole(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  lock: boolean,
): Promise<Role | undefined> {
  const row = await selectRole(db, principal, filteredRoles(db, principal, {}))
    .where('roles.id', '=', id)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
  return row && toRole(row);
}

/** The type of the account `accountId` (standard, partner or system), which bounds what its roles grant. */
export async function accountType(db: Kysely<Database>, accountId: string): Promise<string> {
  const row = await db
    .selectFrom('accounts')
    .select('type')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.type;
}

/** Where a role name must be unique: the active custom roles of one account and application. */
export interface RoleNameScope {
  accountId: string;
  appCode: string;
  name: string;
  /** The role being renamed, which does not collide with itself. */
  exceptId?: string;
}

/**
 * Whether the name is taken, compared without case: by an active custom role of that account and
 * application (what `roles_custom_name` enforces) or by a built-in role of that application, which
 * every account shows beside its own.
 */
export async function roleNameTaken(db: Kysely<Database>, scope: RoleNameScope): Promise<boolean> {
  const row = await db
    .selectFrom('roles')
    .select('id')
    .where('roles.app_code', '=', scope.appCode)
    .where(lowerName, '=', sql<string>`lower(${scope.name})`)
    .where((eb) =>
      eb.or([
        eb('roles.account_id', 'is', null),
        eb.and([eb('roles.account_id', '=', scope.accountId), eb('roles.archived', '=', false)]),
      ]),
    )
    .$if(scope.exceptId !== undefined, (query) => query.where('roles.id', '!=', scope.exceptId ?? ''))
    .executeTakeFirst();
  return row !== undefined;
}

/** The constraint that answers a name taken by a role created at the same moment. */
export const ROLE_NAME_CONSTRAINT = 'roles_custom_name';

export interface NewRole {
  accountId: string;
  appCode: string;
  name: string;
  description: string;
  permissions: readonly string[];
  clonedFrom: string | null;
  createdBy: string;
}

export async function insertRole(db: Kysely<Database>, role: NewRole, now: Date): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('roles')
    .values({
      id,
      code: null,
      name: role.name,
      description: role.description,
      app_code: role.appCode,
      account_id: role.accountId,
      permissions: JSON.stringify(role.permissions),
      cloned_from: role.clonedFrom,
      created_by: role.createdBy,
      created_at: now,
    })
    .execute();
  return id;
}

/** Replaces a role's definition and moves its version on. */
export async function updateRole(
  db: Kysely<Database>,
  id: string,
  fields: { name: string; description: string; permissions: readonly string[] },
  now: Date,
): Promise<void> {
  await db
    .updateTable('roles')
    .set({
      name: fields.name,
      description: fields.description,
      permissions: JSON.stringify(fields.permissions),
      updated_at: now,
      version: sql<number>`version + 1`,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Archives a role. Its holders lose what it grants on their next request, since
 * `effectivePermissions` skips archived roles; the assignments stay for the trail and the count.
 */
export async function archiveRole(db: Kysely<Database>, id: string, by: string, now: Date): Promise<void> {
  await db
    .updateTable('roles')
    .set({
      archived: true,
      archived_at: now,
      archived_by: by,
      updated_at: now,
      version: sql<number>`version + 1`,
    })
    .where('id', '=', id)
    .execute();
}
