import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, type Kysely, sql, type Updateable } from 'kysely';
import type {
  Contact,
  ContactFields,
  ContactType,
  Organization,
  OrganizationFields,
} from '../../contract/schemas/organizations.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { OrganizationSortColumn } from '../../contract/sort-columns.ts';
import { containsPattern } from '../db/like.ts';
import { type ListPageOf, listPage } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import type { Located } from '../resources/versioned-resource.ts';

export interface Page {
  limit: number;
  offset: number;
}

export type ListPage<TItem> = ListPageOf<TItem>;

export type VersionedTable = 'organizations' | 'organization_contacts';

/** Replaces fields of a row, advancing its version (the ETag) and its change time. */
export async function updateVersioned<TTable extends VersionedTable>(
  db: Kysely<Database>,
  table: TTable,
  id: string,
  fields: Updateable<Database[TTable]>,
  now: Date,
): Promise<void> {
  // Kysely cannot resolve the columns of a generic table; `fields` was checked against TTable above.
  await db
    .updateTable(table as VersionedTable)
    .set({ ...fields, version: sql<number>`version + 1`, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Deletes a row; an organization's contacts go with it through the foreign key's cascade. */
export async function deleteVersioned(
  db: Kysely<Database>,
  table: VersionedTable,
  id: string,
): Promise<void> {
  await db.deleteFrom(table).where('id', '=', id).execute();
}

/**
 * Whether the account exists, keeping it until the transaction ends: a deletion running meanwhile
 * waits, and one that committed first makes this false, never a foreign-key failure on insert.
 */
export async function holdAccount(db: Kysely<Database>, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('id', '=', accountId)
    .forKeyShare()
    .executeTakeFirst();
  return row !== undefined;
}

const ORGANIZATION_COLUMNS = [
  'id',
  'account_id',
  'name',
  'address',
  'address2',
  'city',
  'state',
  'zip_code',
  'country',
  'phone',
  'version',
] as const;

function contactsCount(eb: ExpressionBuilder<Database, 'organizations'>) {
  return eb
    .selectFrom('organization_contacts')
    .select((sub) => sub.fn.countAll<number>().as('count'))
    .whereRef('organization_contacts.organization_id', '=', 'organizations.id');
}

function selectOrganizations(db: Kysely<Database>) {
  return db
    .selectFrom('organizations')
    .select((eb) => [...ORGANIZATION_COLUMNS, contactsCount(eb).as('contacts_count')])
    .$narrowType<{ contacts_count: number }>();
}

/**
 * The organization with its contact count, or undefined. With `lock` its row stays locked until the
 * transaction ends, so a concurrent change or deletion waits instead of racing the caller's checks.
 */
export async function findOrganization(
  db: Kysely<Database>,
  id: string,
  lock: boolean,
): Promise<Located<Organization> | undefined> {
  const row = await selectOrganizations(db)
    .where('id', '=', id)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst();
  return row && { row, accountId: row.account_id };
}

export interface OrganizationListQuery extends Page {
  accountId: string;
  sort: SortOrder<OrganizationSortColumn>;
  /** Case-insensitive part of the name; empty for all. */
  name: string;
}

/**
 * One page of an account's organizations. Sorting is case-insensitive, then by the exact text and
 * the id, so equal names keep one stable order from page to page.
 */
export async function listOrganizations(
  db: Kysely<Database>,
  query: OrganizationListQuery,
): Promise<ListPage<Organization>> {
  const { column, direction } = query.sort;
  const matches = (eb: ExpressionBuilder<Database, 'organizations'>) =>
    eb.and([
      eb('account_id', '=', query.accountId),
      ...(query.name === '' ? [] : [eb('name', 'ilike', containsPattern(query.name))]),
    ]);
  // An account's organizations: few, and ordered with ids ascending either way, so no keyset.
  const { rows, ...total } = await listPage(
    { db, matching: selectOrganizations(db).where(matches), keys: null, direction, page: query },
    (cut) =>
      cut
        .orderBy((eb) => eb.fn('lower', [eb.ref(column)]), direction)
        .orderBy(column, direction)
        .orderBy('id')
        .execute(),
  );
  return { items: rows, ...total };
}

export async function insertOrganization(
  db: Kysely<Database>,
  accountId: string,
  fields: OrganizationFields,
  now: Date,
): Promise<Organization> {
  const row = await db
    .insertInto('organizations')
    .values({ ...fields, id: randomUUID(), account_id: accountId, created_at: now, updated_at: now })
    .returning(ORGANIZATION_COLUMNS)
    .executeTakeFirstOrThrow();
  return { ...row, contacts_count: 0 };
}

const CONTACT_COLUMNS = [
  'organization_contacts.id',
  'organization_contacts.organization_id',
  'organization_contacts.first_name',
  'organization_contacts.last_name',
  'organization_contacts.email',
  'organization_contacts.phone',
  'organization_contacts.title',
  'organization_contacts.type',
  'organization_contacts.version',
] as const;

function selectContacts(db: Kysely<Database>) {
  // The table's check constraint admits only the contract's contact types.
  return db.selectFrom('organization_contacts').select(CONTACT_COLUMNS).$narrowType<{ type: ContactType }>();
}

/**
 * The contact, only when it belongs to that organization, with the organization's account; with
 * `lock` the contact's row stays locked until the transaction ends.
 */
export async function findContact(
  db: Kysely<Database>,
  params: { id: string; contactId: string },
  lock: boolean,
): Promise<Located<Contact> | undefined> {
  const found = await selectContacts(db)
    .innerJoin('organizations', 'organizations.id', 'organization_contacts.organization_id')
    .select('organizations.account_id')
    .where('organization_contacts.id', '=', params.contactId)
    .where('organization_contacts.organization_id', '=', params.id)
    .$if(lock, (query) => query.forUpdate('organization_contacts'))
    .executeTakeFirst();
  if (!found) return undefined;
  const { account_id: accountId, ...row } = found;
  return { row, accountId };
}

/** One page of an organization's contacts by last name, first name (case-insensitive), then id. */
export async function listContacts(
  db: Kysely<Database>,
  organizationId: string,
  page: Page,
): Promise<ListPage<Contact>> {
  const { rows, ...total } = await listPage(
    {
      db,
      matching: selectContacts(db).where('organization_contacts.organization_id', '=', organizationId),
      keys: null,
      direction: 'asc',
      page,
    },
    (cut) =>
      cut
        .orderBy((eb) => eb.fn('lower', [eb.ref('organization_contacts.last_name')]))
        .orderBy((eb) => eb.fn('lower', [eb.ref('organization_contacts.first_name')]))
        .orderBy('organization_contacts.last_name')
        .orderBy('organization_contacts.first_name')
        .orderBy('organization_contacts.id')
        .execute(),
  );
  return { items: rows, ...total };
}

export async function insertContact(
  db: Kysely<Database>,
  organizationId: string,
  fields: ContactFields,
  now: Date,
): Promise<Contact> {
  return db
    .insertInto('organization_contacts')
    .values({
      ...fields,
      id: randomUUID(),
      organization_id: organizationId,
      created_at: now,
      updated_at: now,
    })
    .returning(CONTACT_COLUMNS)
    .$narrowType<{ type: ContactType }>()
    .executeTakeFirstOrThrow();
}
