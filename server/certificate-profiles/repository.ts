import { randomUUID } from 'node:crypto';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { ProfilePolicy } from '../../contract/certificate-policy.ts';
import type {
  CertificateProfile,
  CertificateProfileListQuery,
  EnrollmentMethodEntry,
  KeystoreType,
} from '../../contract/schemas/certificate-profiles.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { ProfileSortColumn } from '../../contract/sort-columns.ts';
import { seesEveryAccount, visibleTo } from '../authorization/account-reach.ts';
import type { SortKeys } from '../db/keyset.ts';
import { containsPattern } from '../db/like.ts';
import { type ListPageOf, listPage, type PageRequest } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';

/** The list's filters; the paging and the sort order travel apart. */
export type ProfileFilters = Omit<CertificateProfileListQuery, 'limit' | 'offset' | 'sort'>;

export const DEFAULT_SORT: SortOrder<ProfileSortColumn> = { column: 'name', direction: 'asc' };

/** The unique index that keeps profile names unique per account, without case. */
export const PROFILE_NAME_CONSTRAINT = 'certificate_profiles_account_name';

const lowerName = sql<string>`lower(${sql.ref('certificate_profiles.name')})`;
// A subquery rather than a join, so that the row can be locked (`for update`).
const accountName = sql<string>`(select ${sql.ref('accounts.name')} from accounts where ${sql.ref(
  'accounts.id',
)} = ${sql.ref('certificate_profiles.account_id')})`;

function sortKeys(column: ProfileSortColumn): SortKeys {
  const keys: Record<ProfileSortColumn, readonly RawBuilder<unknown>[]> = {
    name: [lowerName],
    account: [sql`lower(${accountName})`, lowerName],
    validity: [sql`(${sql.ref('certificate_profiles.policy')} ->> 'validity_days')::int`, lowerName],
    updated: [sql.ref('certificate_profiles.updated_at')],
  };
  return [...keys[column], sql.ref('certificate_profiles.id')];
}

/** The profiles of the accounts `principal` reaches, narrowed by the filters. */
function filteredProfiles(db: Kysely<Database>, principal: Principal, filters: ProfileFilters) {
  let query = db.selectFrom('certificate_profiles');
  if (!seesEveryAccount(principal)) {
    query = query.where(
      'certificate_profiles.account_id',
      'in',
      db.selectFrom('accounts').select('accounts.id').where(visibleTo(principal)),
    );
  }
  if (filters.name) query = query.where('certificate_profiles.name', 'ilike', containsPattern(filters.name));
  if (filters.account_id !== undefined)
    query = query.where('certificate_profiles.account_id', '=', filters.account_id);
  return query;
}

function selectProfile(query: ReturnType<typeof filteredProfiles>) {
  return query.select([
    'certificate_profiles.id',
    'certificate_profiles.account_id',
    accountName.as('account_name'),
    'certificate_profiles.name',
    'certificate_profiles.description',
    'certificate_profiles.cert_type',
    'certificate_profiles.policy',
    'certificate_profiles.created_at',
    'certificate_profiles.updated_at',
    'certificate_profiles.version',
  ]);
}

type ProfileRow = Awaited<ReturnType<ReturnType<typeof selectProfile>['execute']>>[number];

function toProfile(row: ProfileRow): CertificateProfile {
  return {
    id: row.id,
    account_id: row.account_id,
    account_name: row.account_name,
    name: row.name,
    description: row.description,
    cert_type: row.cert_type,
    policy: row.policy,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    version: row.version,
  };
}

export interface ListPage extends PageRequest {
  sort: SortOrder<ProfileSortColumn>;
}

/** One page of the profiles the caller reaches and how many match in all. */
export async function listProfiles(
  db: Kysely<Database>,
  principal: Principal,
  filters: ProfileFilters,
  page: ListPage,
): Promise<ListPageOf<CertificateProfile>> {
  const { rows, ...total } = await listPage(
    {
      db,
      matching: filteredProfiles(db, principal, filters),
      keys: sortKeys(page.sort.column),
      direction: page.sort.direction,
      page,
    },
    (cut) => selectProfile(cut).execute(),
  );
  return { items: rows.map(toProfile), ...total };
}

/** The profile with `id` if the caller reaches its account; with `lock`, locked for the transaction. */
export async function findReachableProfile(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  lock: boolean,
): Promise<CertificateProfile | undefined> {
  const row = await selectProfile(filteredProfiles(db, principal, {}))
    .where('certificate_profiles.id', '=', id)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
  return row && toProfile(row);
}

/** Whether another profile of the account has this name, compared without case. */
export async function profileNameTaken(
  db: Kysely<Database>,
  scope: { accountId: string; name: string; exceptId?: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('certificate_profiles')
    .select('id')
    .where('account_id', '=', scope.accountId)
    .where(sql<boolean>`lower(${sql.ref('name')}) = lower(${scope.name})`)
    .$if(scope.exceptId !== undefined, (query) => query.where('id', '!=', scope.exceptId as string))
    .executeTakeFirst();
  return row !== undefined;
}

export interface ProfileValues {
  name: string;
  description: string;
  policy: ProfilePolicy;
}

export async function insertProfile(
  db: Kysely<Database>,
  values: ProfileValues & { accountId: string; createdBy: string | null },
  now: Date,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('certificate_profiles')
    .values({
      id,
      account_id: values.accountId,
      name: values.name,
      description: values.description,
      policy: JSON.stringify(values.policy),
      created_at: now,
      updated_at: now,
      created_by: values.createdBy,
    })
    .execute();
  return id;
}

export async function updateProfile(
  db: Kysely<Database>,
  id: string,
  values: ProfileValues,
  now: Date,
): Promise<void> {
  await db
    .updateTable('certificate_profiles')
    .set((eb) => ({
      name: values.name,
      description: values.description,
      policy: JSON.stringify(values.policy),
      updated_at: now,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id)
    .execute();
}

export async function deleteProfile(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('certificate_profiles').where('id', '=', id).execute();
}

export async function listEnrollmentMethods(db: Kysely<Database>): Promise<EnrollmentMethodEntry[]> {
  const rows = await db
    .selectFrom('enrollment_methods')
    .select(['code', 'name'])
    .orderBy('position')
    .execute();
  return rows as EnrollmentMethodEntry[];
}

export async function listKeystoreTypes(db: Kysely<Database>): Promise<KeystoreType[]> {
  return db
    .selectFrom('keystore_types')
    .select(['code', 'name', 'category', 'source', 'location'])
    .orderBy('position')
    .execute();
}
