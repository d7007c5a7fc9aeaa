import { type Kysely, type RawBuilder, sql } from 'kysely';
import { ACCOUNT_EXPIRY_BANNER_DAYS } from '../../contract/constants.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import {
  type ExpiringTenants,
  FEDERATION_STATUSES,
  TENANT_TYPES,
  type TenantList,
  type TenantListQuery,
  type TenantSummary,
} from '../../contract/schemas/tenants.ts';
import type { TenantSortColumn } from '../../contract/sort-columns.ts';
import { seesEveryAccount, visibleTo } from '../authorization/account-reach.ts';
import { addDays } from '../dates.ts';
import { orderByKeys, type SortKeys } from '../db/keyset.ts';
import { containsPattern } from '../db/like.ts';
import { listPage, type PageRequest } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import { oneOf } from '../db/stored-values.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * The accounts list (GET tenants, GET tenants/export): the caller's accounts, filtered and sorted.
 * Sort keys and filters are written to match the indexes of migration 20261121T0900, which is what
 * keeps a page of 100,000 accounts an index range scan.
 */

export type TenantFilters = Omit<TenantListQuery, 'limit' | 'offset' | 'after' | 'sort'>;

export const DEFAULT_SORT: SortOrder<TenantSortColumn> = { column: 'name', direction: 'asc' };

/** Accounts without a partner sit directly under the platform; the list calls that partner "system". */
const PLATFORM_PARTNER_NAME = 'system';

/** `YYYY-MM-DD` plus `days` calendar days. */

/**
 * The end date as it sorts and filters: an account without an end date never ends, so it sorts after
 * every date and falls outside every bounded range. Never null, which keyset pagination needs.
 */
const endDateKey = sql<string>`coalesce(${sql.ref('a.service_to')}, 'infinity'::date)`;
const lowerName = sql<string>`lower(${sql.ref('a.name')})`;
/** The partner's name as accounts sort by it; accounts without a partner sort as "system". */
export const partnerNameKey = sql<string>`lower(coalesce(${sql.ref('p.name')}, ${sql.lit(PLATFORM_PARTNER_NAME)}))`;

/**
 * Whether the name of account `table` contains `text`, case-insensitively: `name ilike pattern` as
 * PostgreSQL computes it in a UTF-8 database (both sides lower-cased, then LIKE), with the row's side
 * stored (`name_lower`, migration 20261229T0900) instead of lower-cased on every row of every request.
 */
function nameContains(table: 'a' | 'p', text: string) {
  return sql<boolean>`${sql.ref(`${table}.name_lower`)} like lower(${containsPattern(text)})`;
}

/** Columns of the account itself, each with an index in its sort order. */
export type IndexedSortColumn = Exclude<TenantSortColumn, 'partner_account_name'>;

/**
 * Sort keys per column, before the `id` tie-breaker. Secondary keys keep equal rows in name order.
 * Sorting by partner name (then name) goes group by group instead: see `pageByPartnerName`.
 */
const SORT_KEYS: Record<IndexedSortColumn, readonly RawBuilder<unknown>[]> = {
  name: [lowerName],
  // Ascending status lists active accounts first, as the words "active" < "inactive" do.
  status: [sql`(not ${sql.ref('a.active')})`, lowerName],
  friendly_identifier: [sql.ref('a.friendly_identifier')],
  start_date: [sql.ref('a.service_from')],
  end_date: [endDateKey],
  type: [sql.ref('a.type'), lowerName],
};

export function sortKeys(column: IndexedSortColumn): SortKeys {
  return [...SORT_KEYS[column], sql.ref('a.id')];
}

/**
 * The caller's accounts as table `a`, or only the one with `id`. For partner and account scope the
 * few visible accounts are found first through their own index: `offset 0` keeps the planner from
 * instead walking a sort index over every account in search of them (measured at 100,000 accounts:
 * 35 ms against 0.5 ms).
 */
function visibleAccounts(db: Kysely<Database>, principal: Principal, id: string | undefined) {
  const visible = db.selectFrom('accounts').selectAll().where(visibleTo(principal));
  if (id !== undefined) return visible.where('accounts.id', '=', id).as('a');
  return (seesEveryAccount(principal) ? visible : visible.offset(0)).as('a');
}

/** The caller's accounts (`a`), or only the one with `id`, joined to their partner (`p`). */
export function accountsWithPartner(db: Kysely<Database>, principal: Principal, id?: string) {
  return db
    .selectFrom(visibleAccounts(db, principal, id))
    .leftJoin('accounts as p', 'p.id', 'a.partner_account_id');
}

/** The caller's accounts joined to their partner, narrowed by the list's filters. */
export function filteredAccounts(
  db: Kysely<Database>,
  principal: Principal,
  filters: TenantFilters,
  today: string,
) {
  let query = accountsWithPartner(db, principal);
  if (filters.active !== undefined) query = query.where('a.active', '=', filters.active === 'true');
  if (filters.endDateFrom !== undefined) {
    query = query.where(endDateKey, '>=', filters.endDateFrom).where('a.service_to', 'is not', null);
  }
  if (filters.endDateTo !== undefined) query = query.where(endDateKey, '<=', filters.endDateTo);
  if (filters.endsWithinDays !== undefined) {
    query = query
      .where(endDateKey, '>=', today)
      .where(endDateKey, '<=', addDays(today, filters.endsWithinDays));
  }
  if (filters.type !== undefined) query = query.where('a.type', '=', filters.type);
  if (filters.name) query = query.where(nameContains('a', filters.name));
  if (filters.friendly_identifier) {
    query = query.where('a.friendly_identifier', 'ilike', containsPattern(filters.friendly_identifier));
  }
  const partnerName = filters.partnerAccountNameLike;
  if (partnerName) {
    // Accounts without a partner are listed under "system", so the text matches them as it matches that word.
    query = PLATFORM_PARTNER_NAME.includes(partnerName.toLowerCase())
      ? query.where((eb) => eb.or([nameContains('p', partnerName), eb('a.partner_account_id', 'is', null)]))
      : query.where(nameContains('p', partnerName));
  }
  return query;
}

type AccountsWithPartner = ReturnType<typeof accountsWithPartner>;

/** The columns of a TenantSummary, read from `a` and its partner `p`. */
export function selectSummary(query: AccountsWithPartner) {
  return query.select([
    'a.id',
    'a.name',
    'a.display_name',
    'a.active',
    'a.friendly_identifier',
    'a.service_from',
    'a.service_to',
    'a.locale',
    'a.type',
    'a.system_account',
    'a.partner_account_id',
    'p.name as partner_account_name',
    'a.federated_account_id',
    'a.federation_status',
    'a.federated_account_details_url',
    'a.version',
  ]);
}

export interface SummaryRow {
  id: string;
  name: string;
  display_name: string;
  active: boolean;
  friendly_identifier: string;
  service_from: string;
  service_to: string | null;
  locale: string;
  type: string;
  system_account: boolean;
  version: number;
  partner_account_id: string | null;
  partner_account_name: string | null;
  federated_account_id: string | null;
  federation_status: string | null;
  federated_account_details_url: string | null;
}

export function toTenantSummary(row: SummaryRow): TenantSummary {
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    active: row.active,
    friendly_identifier: row.friendly_identifier,
    service_period: { from: row.service_from, to: row.service_to },
    locale: row.locale,
    type: oneOf(TENANT_TYPES, row.type, 'account type'),
    system_account: row.system_account,
    partner_account_id: row.partner_account_id,
    partner_account_name: row.partner_account_name,
    federated_account_id: row.federated_account_id,
    federation_status:
      row.federation_status === null
        ? null
        : oneOf(FEDERATION_STATUSES, row.federation_status, 'federation status'),
    federated_account_details_url: row.federated_account_details_url,
    version: row.version,
  };
}

export interface ListPage extends PageRequest {
  sort: SortOrder<TenantSortColumn>;
}

/** One page of the caller's accounts and how many match (bounded: decision 024). */
export async function listTenants(
  db: Kysely<Database>,
  principal: Principal,
  filters: TenantFilters,
  page: ListPage,
  today: string,
): Promise<TenantList> {
  const filtered = filteredAccounts(db, principal, filters, today);
  if (page.sort.column === 'partner_account_name') return pageByPartnerName(db, filtered, page);
  const { rows, ...total } = await listPage(
    { db, matching: filtered, keys: sortKeys(page.sort.column), direction: page.sort.direction, page },
    selectSummary,
  );
  return { items: rows.map(toTenantSummary), ...total };
}

export type FilteredAccounts = ReturnType<typeof filteredAccounts>;

export interface PartnerGroup {
  /** `lower(partner name)`, "system" for accounts without a partner. */
  sort_key: string;
  /** The partners sharing that key; null stands for "no partner". */
  partner_ids: (string | null)[];
  accounts: number;
}

/**
 * The matching accounts grouped by the partner-name sort key, in sort order, with their number: one
 * pass over the matching accounts, and few groups (one per partner).
 */
export function partnerGroups(
  db: Kysely<Database>,
  accounts: FilteredAccounts,
  direction: 'asc' | 'desc',
): Promise<PartnerGroup[]> {
  const perPartner = accounts
    .select((eb) => ['a.partner_account_id', eb.fn.countAll<number>().as('accounts')])
    .groupBy('a.partner_account_id')
    .as('g');
  return db
    .selectFrom(perPartner)
    .leftJoin('accounts as p', 'p.id', 'g.partner_account_id')
    .select([
      partnerNameKey.as('sort_key'),
      sql<(string | null)[]>`array_agg(${sql.ref('g.partner_account_id')})`.as('partner_ids'),
      sql<number>`sum(${sql.ref('g.accounts')})::int`.as('accounts'),
    ])
    .groupBy(sql`1`)
    .orderBy(sql`1`, direction)
    .execute();
}

/** The matching accounts of one partner group; an index on (partner, lower(name), id) orders them. */
export function inPartnerGroup(accounts: FilteredAccounts, group: PartnerGroup): FilteredAccounts {
  const partnerIds = group.partner_ids.filter((id) => id !== null);
  const withoutPartner = group.partner_ids.includes(null);
  return accounts.where((eb) =>
    eb.or([
      ...(partnerIds.length > 0 ? [eb('a.partner_account_id', 'in', partnerIds)] : []),
      ...(withoutPartner ? [eb('a.partner_account_id', 'is', null)] : []),
    ]),
  );
}

/**
 * A page sorted by partner name. No index orders accounts by their partner's name, and sorting every
 * matching account for each page costs 60–300 ms at 100,000 accounts; instead the groups' sizes
 * (which also give the total) say which groups the page falls in, and only those are read, in name
 * order through the index.
 */
async function pageByPartnerName(
  db: Kysely<Database>,
  filtered: FilteredAccounts,
  page: ListPage,
): Promise<TenantList> {
  const groups = await partnerGroups(db, filtered, page.sort.direction);
  const items: TenantSummary[] = [];
  let skip = page.offset;
  for (const group of groups) {
    if (items.length === page.limit) break;
    if (skip >= group.accounts) {
      skip -= group.accounts;
      continue;
    }
    const query = orderByKeys(
      selectSummary(inPartnerGroup(filtered, group)),
      sortKeys('name'),
      page.sort.direction,
    );
    const rows = await query
      .offset(skip)
      .limit(page.limit - items.length)
      .execute();
    items.push(...rows.map(toTenantSummary));
    skip = 0;
  }
  return {
    items,
    total: groups.reduce((sum, group) => sum + group.accounts, 0),
    total_is_lower_bound: false,
  };
}

/**
 * `{ "30": n, "60": n }`: the caller's active accounts whose end date lies between today and 30 or
 * 60 days from today, both days included (the expiry banners, account administration §2).
 */
export async function expiringCounts(
  db: Kysely<Database>,
  principal: Principal,
  today: string,
): Promise<ExpiringTenants> {
  const [near, far] = ACCOUNT_EXPIRY_BANNER_DAYS;
  const row = await filteredAccounts(db, principal, { active: 'true', endsWithinDays: far }, today)
    .select((eb) => [
      eb.fn.countAll<number>().filterWhere(endDateKey, '<=', addDays(today, near)).as('near'),
      eb.fn.countAll<number>().as('far'),
    ])
    .executeTakeFirstOrThrow();
  return { [near]: row.near, [far]: row.far };
}
