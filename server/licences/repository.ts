import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { ApplicationCode } from '../../contract/permissions.ts';
import { visibleTo } from '../authorization/account-reach.ts';
import { listPage } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';

/** Where an account sits in the allocation tree: the system, a partner, or an account. */
export interface AccountPlace {
  id: string;
  name: string;
  type: string;
  partner_account_id: string | null;
  system_account: boolean;
}

const PLACE_COLUMNS = ['id', 'name', 'type', 'partner_account_id', 'system_account'] as const;

/** The account `id` when `principal` reaches it. */
export function findReachableAccount(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
): Promise<AccountPlace | undefined> {
  return db
    .selectFrom('accounts')
    .select(PLACE_COLUMNS)
    .where('accounts.id', '=', id)
    .where(visibleTo(principal))
    .executeTakeFirst();
}

/** The system account: the installed licence is its pool. */
export function findSystemAccount(db: Kysely<Database>): Promise<AccountPlace> {
  return db
    .selectFrom('accounts')
    .select(PLACE_COLUMNS)
    .where('system_account', '=', true)
    .executeTakeFirstOrThrow();
}

/**
 * The account `account` draws its allocations from: its partner, else the system account. The
 * system account is its own parent: it draws from the installed licence.
 */
export async function findParent(db: Kysely<Database>, account: AccountPlace): Promise<AccountPlace> {
  if (account.system_account) return account;
  if (account.partner_account_id === null) return findSystemAccount(db);
  return db
    .selectFrom('accounts')
    .select(PLACE_COLUMNS)
    .where('id', '=', account.partner_account_id)
    .executeTakeFirstOrThrow();
}

/** `app:type`, the key of one licence type in the maps below. */
export function typeKey(app: ApplicationCode, type: string): string {
  return `${app}:${type}`;
}

/** Stored totals and reported use of an account's types of `app` (of every application without), by `typeKey`. */
export async function storedAllocations(
  db: Kysely<Database>,
  accountId: string,
  app?: ApplicationCode,
): Promise<Map<string, { total: number; used: number }>> {
  const rows = await db
    .selectFrom('licence_allocations')
    .select(['app_code', 'feature', 'total_allocated', 'used'])
    .where('account_id', '=', accountId)
    .$if(app !== undefined, (query) => query.where('app_code', '=', app as ApplicationCode))
    .execute();
  return new Map(
    rows.map((row) => [typeKey(row.app_code, row.feature), { total: row.total_allocated, used: row.used }]),
  );
}

/**
 * What `parent` gave its children of each type of `app` (of every application without), by
 * `typeKey`: the system account's children are the accounts under no partner, a partner's the
 * accounts under it; an account has none.
 */
export async function allocatedToChildren(
  db: Kysely<Database>,
  parent: AccountPlace,
  app?: ApplicationCode,
): Promise<Map<string, number>> {
  if (!parent.system_account && parent.type !== 'partner') return new Map();
  const rows = await db
    .selectFrom('licence_allocations as l')
    .innerJoin('accounts as a', 'a.id', 'l.account_id')
    .select(['l.app_code', 'l.feature', (eb) => eb.fn.sum<string | number>('l.total_allocated').as('given')])
    .$if(app !== undefined, (query) => query.where('l.app_code', '=', app as ApplicationCode))
    .$if(parent.system_account, (query) =>
      query.where('a.partner_account_id', 'is', null).where('a.system_account', '=', false),
    )
    .$if(!parent.system_account, (query) => query.where('a.partner_account_id', '=', parent.id))
    .groupBy(['l.app_code', 'l.feature'])
    .execute();
  return new Map(rows.map((row) => [typeKey(row.app_code, row.feature), Number(row.given)]));
}

/** The version of the account's allocations of `app`: 0 before its first change. */
export async function licenceVersion(
  db: Kysely<Database>,
  accountId: string,
  app: ApplicationCode,
  lock: boolean,
): Promise<number> {
  const row = await db
    .selectFrom('account_licences')
    .select('version')
    .where('account_id', '=', accountId)
    .where('app_code', '=', app)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
  return row?.version ?? 0;
}

/**
 * Locks the rows of `accounts` (in that order) for every type of `app`, each account's in type order,
 * creating those that do not exist yet, and then the version of the last account's allocations. Two
 * changes drawing from one pool take the parent's rows first, in one order, so they wait for each
 * other instead of both reading the pool before either wrote it, and never deadlock.
 */
export async function lockAllocations(
  trx: Kysely<Database>,
  accounts: readonly string[],
  app: ApplicationCode,
  types: readonly string[],
): Promise<void> {
  for (const accountId of accounts) {
    await trx
      .insertInto('licence_allocations')
      .values(types.map((feature) => ({ account_id: accountId, app_code: app, feature })))
      .onConflict((conflict) => conflict.columns(['account_id', 'app_code', 'feature']).doNothing())
      .execute();
    await trx
      .selectFrom('licence_allocations')
      .select('feature')
      .where('account_id', '=', accountId)
      .where('app_code', '=', app)
      .orderBy('feature')
      .forUpdate()
      .execute();
  }
  const accountId = accounts.at(-1);
  if (accountId === undefined) return;
  await trx
    .insertInto('account_licences')
    .values({ account_id: accountId, app_code: app })
    .onConflict((conflict) => conflict.columns(['account_id', 'app_code']).doNothing())
    .execute();
}

/** The platform's own count of a metered type's use (decision 022 §1). */
export async function meteredUse(
  db: Kysely<Database>,
  accountId: string,
  app: ApplicationCode,
  type: string,
  now: Date,
): Promise<number> {
  if (app === 'ca_manager' && type === 'certificates') {
    // Issued and not expired: neither revoked nor past its end.
    const row = await db
      .selectFrom('certificates')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .where('not_after', '>', now)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
  if (app === 'device_trust_manager' && type === 'devices') {
    const row = await db
      .selectFrom('seats')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('account_id', '=', accountId)
      .where('kind', '=', 'device')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
  throw new Error(`No count of ${app}.${type}.`);
}

/** Sets totals of the account's types of `app` and bumps the version of its allocations. */
export async function writeTotals(
  trx: Kysely<Database>,
  accountId: string,
  app: ApplicationCode,
  totals: ReadonlyMap<string, number>,
): Promise<void> {
  for (const [feature, total] of totals) {
    await trx
      .updateTable('licence_allocations')
      .set({ total_allocated: total })
      .where('account_id', '=', accountId)
      .where('app_code', '=', app)
      .where('feature', '=', feature)
      .execute();
  }
  await trx
    .updateTable('account_licences')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('account_id', '=', accountId)
    .where('app_code', '=', app)
    .execute();
}

/** Sets the use an application reported of the account's types. */
export async function writeReportedUse(
  trx: Kysely<Database>,
  accountId: string,
  app: ApplicationCode,
  usage: ReadonlyMap<string, number>,
): Promise<void> {
  for (const [feature, used] of usage) {
    await trx
      .updateTable('licence_allocations')
      .set({ used })
      .where('account_id', '=', accountId)
      .where('app_code', '=', app)
      .where('feature', '=', feature)
      .execute();
  }
}

export interface HistoryEntry {
  app: ApplicationCode;
  feature: string;
  quantity: number;
  limit: number;
}

export async function insertHistory(
  trx: Kysely<Database>,
  accountId: string,
  actor: { id: string; name: string },
  entries: readonly HistoryEntry[],
  now: Date,
): Promise<void> {
  if (entries.length === 0) return;
  await trx
    .insertInto('licence_history')
    .values(
      entries.map((entry) => ({
        id: randomUUID(),
        account_id: accountId,
        app_code: entry.app,
        feature: entry.feature,
        quantity: entry.quantity,
        new_limit: entry.limit,
        actor_id: actor.id,
        actor_name: actor.name,
        at: now,
      })),
    )
    .execute();
}

/** One page of the account's history of `apps` (every row, oldest first, without), and how many rows it has. */
export async function historyPage(
  db: Kysely<Database>,
  accountId: string,
  apps: readonly ApplicationCode[],
  page: { limit: number; offset: number; direction: 'asc' | 'desc' } | null,
) {
  if (apps.length === 0) return { rows: [], total: 0, total_is_lower_bound: false };
  const base = db
    .selectFrom('licence_history')
    .where('account_id', '=', accountId)
    .where('app_code', 'in', apps);
  if (page === null) {
    const rows = await base.selectAll().orderBy('at').orderBy('id').execute();
    return { rows, total: rows.length, total_is_lower_bound: false };
  }
  return listPage(
    { db, matching: base, keys: [sql.ref('at'), sql.ref('id')], direction: page.direction, page },
    (cut) => cut.selectAll().execute(),
  );
}
