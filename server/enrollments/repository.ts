import { randomUUID } from 'node:crypto';
import { type Kysely, type RawBuilder, sql, type Updateable } from 'kysely';
import type {
  Enrollment,
  EnrollmentListQuery,
  EnrollmentStatus,
  Seat,
} from '../../contract/schemas/enrollments.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import { seesEveryAccount, visibleTo } from '../authorization/account-reach.ts';
import type { SortKeys } from '../db/keyset.ts';
import { containsPattern } from '../db/like.ts';
import { type ListPageOf, listPage, type PageRequest } from '../db/list-page.ts';
import type { Database, EnrollmentsTable, SeatsTable } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';

export type EnrollmentSortColumn = 'created_at' | 'status' | 'seat_name';
export type EnrollmentFilters = Omit<EnrollmentListQuery, 'limit' | 'offset' | 'sort'>;
export const DEFAULT_SORT: SortOrder<EnrollmentSortColumn> = { column: 'created_at', direction: 'desc' };

/** An enrollment row as stored, with the seat it belongs to and its account's name. */
export interface StoredEnrollment {
  id: string;
  account_id: string;
  account_name: string;
  seat: Seat;
  profile_id: string | null;
  profile_name: string;
  stored_status: EnrollmentsTable['status'];
  code_hash: string;
  code_expires_at: Date;
  failed_attempts: number;
  enrollment_method: EnrollmentsTable['enrollment_method'];
  keystore_type: string | null;
  certificate_id: string | null;
  created_by: string | null;
  created_at: Date;
  issued_at: Date | null;
  redeemed_at: Date | null;
  client_auth_requested_at: Date | null;
  client_auth_certificate_id: string | null;
  version: number;
}

/** `expired` is never stored: a pending enrollment reads so once its code's time has run out. */
export function effectiveStatus(row: Pick<StoredEnrollment, 'stored_status' | 'code_expires_at'>, now: Date) {
  return row.stored_status === 'pending' && row.code_expires_at.getTime() <= now.getTime()
    ? 'expired'
    : row.stored_status;
}

function seatOf(row: {
  seat_id: string;
  account_id: string;
  seat_kind: SeatsTable['kind'];
  seat_user_id: string | null;
  seat_name: string;
  seat_email: string;
  seat_created_at: Date;
}): Seat {
  return {
    id: row.seat_id,
    account_id: row.account_id,
    kind: row.seat_kind,
    user_id: row.seat_user_id,
    name: row.seat_name,
    email: row.seat_email,
    created_at: row.seat_created_at.toISOString(),
  };
}

export function toEnrollment(row: StoredEnrollment, now: Date): Enrollment {
  return {
    id: row.id,
    account_id: row.account_id,
    account_name: row.account_name,
    seat: row.seat,
    profile_id: row.profile_id ?? '',
    profile_name: row.profile_name,
    status: effectiveStatus(row, now),
    code_expires_at: row.code_expires_at.toISOString(),
    failed_attempts: row.failed_attempts,
    enrollment_method: row.enrollment_method,
    keystore_type: row.keystore_type,
    certificate_id: row.certificate_id,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    issued_at: row.issued_at?.toISOString() ?? null,
    redeemed_at: row.redeemed_at?.toISOString() ?? null,
    client_auth: clientAuthOf(row),
    version: row.version,
  };
}

/** Where the client-authentication certificate asked for on the enrollment stands (decision 033). */
export function clientAuthOf(
  row: Pick<StoredEnrollment, 'client_auth_requested_at' | 'client_auth_certificate_id'>,
): Enrollment['client_auth'] {
  if (row.client_auth_requested_at === null) return null;
  return {
    status: row.client_auth_certificate_id === null ? 'requested' : 'issued',
    requested_at: row.client_auth_requested_at.toISOString(),
    client_auth_certificate_id: row.client_auth_certificate_id,
  };
}

function enrollmentsWithSeats(db: Kysely<Database>) {
  return db
    .selectFrom('enrollments')
    .innerJoin('seats', 'seats.id', 'enrollments.seat_id')
    .innerJoin('accounts', 'accounts.id', 'enrollments.account_id');
}

function selectEnrollment(query: ReturnType<typeof enrollmentsWithSeats>) {
  return query.select([
    'enrollments.id',
    'enrollments.account_id',
    'accounts.name as account_name',
    'enrollments.seat_id',
    'seats.kind as seat_kind',
    'seats.user_id as seat_user_id',
    'seats.name as seat_name',
    'seats.email as seat_email',
    'seats.created_at as seat_created_at',
    'enrollments.profile_id',
    'enrollments.profile_name',
    'enrollments.status',
    'enrollments.code_hash',
    'enrollments.code_expires_at',
    'enrollments.failed_attempts',
    'enrollments.enrollment_method',
    'enrollments.keystore_type',
    'enrollments.certificate_id',
    'enrollments.created_by',
    'enrollments.created_at',
    'enrollments.issued_at',
    'enrollments.redeemed_at',
    'enrollments.client_auth_requested_at',
    'enrollments.client_auth_certificate_id',
    'enrollments.version',
  ]);
}

type EnrollmentRow = Awaited<ReturnType<ReturnType<typeof selectEnrollment>['execute']>>[number];

function stored(row: EnrollmentRow): StoredEnrollment {
  const { seat_id, seat_kind, seat_user_id, seat_name, seat_email, seat_created_at, status, ...rest } = row;
  return {
    ...rest,
    stored_status: status,
    seat: seatOf({
      seat_id,
      account_id: row.account_id,
      seat_kind,
      seat_user_id,
      seat_name,
      seat_email,
      seat_created_at,
    }),
  };
}

/** Locks the enrollment's row (a separate statement: the read joins seats and accounts). */
async function lockEnrollment(db: Kysely<Database>, id: string): Promise<void> {
  await db.selectFrom('enrollments').select('id').where('id', '=', id).forUpdate().execute();
}

/**
 * The enrollment `id`, whoever asks (the public routes judge it by its code); with `lock`, its row
 * is held until the transaction ends, so of two requests on one enrollment the second reads what
 * the first wrote.
 */
export async function findEnrollment(
  db: Kysely<Database>,
  id: string,
  lock: boolean,
): Promise<StoredEnrollment | undefined> {
  if (lock) await lockEnrollment(db, id);
  const row = await selectEnrollment(enrollmentsWithSeats(db))
    .where('enrollments.id', '=', id)
    .executeTakeFirst();
  return row && stored(row);
}

/** The enrollment `id` if the caller reaches its account. */
export async function findReachableEnrollment(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  lock: boolean,
): Promise<StoredEnrollment | undefined> {
  if (lock) await lockEnrollment(db, id);
  const row = await selectEnrollment(reachable(enrollmentsWithSeats(db), db, principal))
    .where('enrollments.id', '=', id)
    .executeTakeFirst();
  return row && stored(row);
}

function reachable<Q extends ReturnType<typeof enrollmentsWithSeats>>(
  query: Q,
  db: Kysely<Database>,
  principal: Principal,
): Q {
  if (seesEveryAccount(principal)) return query;
  return query.where(
    'enrollments.account_id',
    'in',
    db.selectFrom('accounts').select('accounts.id').where(visibleTo(principal)),
  ) as Q;
}

function statusCondition(status: EnrollmentStatus, now: Date) {
  switch (status) {
    case 'expired':
      return sql<boolean>`enrollments.status = 'pending' and enrollments.code_expires_at <= ${now}`;
    case 'pending':
      return sql<boolean>`enrollments.status = 'pending' and enrollments.code_expires_at > ${now}`;
    default:
      return sql<boolean>`enrollments.status = ${status}`;
  }
}

function sortKeys(column: EnrollmentSortColumn, now: Date): SortKeys {
  const keys: Record<EnrollmentSortColumn, readonly RawBuilder<unknown>[]> = {
    created_at: [sql.ref('enrollments.created_at')],
    status: [
      sql`case when enrollments.status = 'pending' and enrollments.code_expires_at <= ${now} then 'expired' else enrollments.status end`,
      sql.ref('enrollments.created_at'),
    ],
    seat_name: [sql`lower(${sql.ref('seats.name')})`, sql.ref('enrollments.created_at')],
  };
  return [...keys[column], sql.ref('enrollments.id')];
}

/** One page of the enrollments of the accounts the caller reaches, and how many match in all. */
export async function listEnrollments(
  db: Kysely<Database>,
  principal: Principal,
  filters: EnrollmentFilters,
  page: PageRequest & { sort: SortOrder<EnrollmentSortColumn> },
  now: Date,
): Promise<ListPageOf<Enrollment>> {
  let filtered = reachable(enrollmentsWithSeats(db), db, principal);
  if (filters.account_id !== undefined)
    filtered = filtered.where('enrollments.account_id', '=', filters.account_id);
  if (filters.seat_id !== undefined) filtered = filtered.where('enrollments.seat_id', '=', filters.seat_id);
  if (filters.user_id !== undefined) filtered = filtered.where('seats.user_id', '=', filters.user_id);
  if (filters.status !== undefined) filtered = filtered.where(statusCondition(filters.status, now));
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    filtered = filtered.where((eb) =>
      eb.or([
        eb('seats.name', 'ilike', pattern),
        eb('seats.email', 'ilike', pattern),
        eb('enrollments.profile_name', 'ilike', pattern),
      ]),
    );
  }
  const { rows, ...total } = await listPage(
    { db, matching: filtered, keys: sortKeys(page.sort.column, now), direction: page.sort.direction, page },
    (cut) => selectEnrollment(cut).execute(),
  );
  return { items: rows.map((row) => toEnrollment(stored(row), now)), ...total };
}

function toSeat(row: {
  id: string;
  account_id: string;
  kind: SeatsTable['kind'];
  user_id: string | null;
  name: string;
  email: string;
  created_at: Date;
}): Seat {
  return { ...row, created_at: row.created_at.toISOString() };
}

const SEAT_COLUMNS = ['id', 'account_id', 'kind', 'user_id', 'name', 'email', 'created_at'] as const;

/** The seat `id` if the caller reaches its account. */
export async function findReachableSeat(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
): Promise<Seat | undefined> {
  let query = db.selectFrom('seats').select(SEAT_COLUMNS).where('seats.id', '=', id);
  if (!seesEveryAccount(principal)) {
    query = query.where(
      'seats.account_id',
      'in',
      db.selectFrom('accounts').select('accounts.id').where(visibleTo(principal)),
    );
  }
  const row = await query.executeTakeFirst();
  return row && toSeat(row);
}

/** The person's seat in the account, made on their first enrollment there. */
export async function ensureUserSeat(
  trx: Kysely<Database>,
  accountId: string,
  user: { id: string; name: string; email: string },
  now: Date,
): Promise<{ seat: Seat; created: boolean }> {
  const existing = await trx
    .selectFrom('seats')
    .select(SEAT_COLUMNS)
    .where('account_id', '=', accountId)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (existing) {
    // The seat follows the person's current name and address, where the mail goes.
    await trx
      .updateTable('seats')
      .set({ name: user.name, email: user.email })
      .where('id', '=', existing.id)
      .execute();
    return { seat: toSeat({ ...existing, name: user.name, email: user.email }), created: false };
  }
  return {
    seat: await insertSeat(
      trx,
      { accountId, kind: 'user', userId: user.id, name: user.name, email: user.email },
      now,
    ),
    created: true,
  };
}

/** The device's seat in the account, by its name without case; its technician's address follows the latest. */
export async function ensureDeviceSeat(
  trx: Kysely<Database>,
  accountId: string,
  device: { name: string; email: string },
  now: Date,
): Promise<{ seat: Seat; created: boolean }> {
  const existing = await trx
    .selectFrom('seats')
    .select(SEAT_COLUMNS)
    .where('account_id', '=', accountId)
    .where('kind', '=', 'device')
    .where(sql<boolean>`lower(name) = lower(${device.name})`)
    .orderBy('created_at')
    .executeTakeFirst();
  if (existing) {
    await trx.updateTable('seats').set({ email: device.email }).where('id', '=', existing.id).execute();
    return { seat: toSeat({ ...existing, email: device.email }), created: false };
  }
  return {
    seat: await insertSeat(trx, { accountId, kind: 'device', userId: null, ...device }, now),
    created: true,
  };
}

export async function insertSeat(
  trx: Kysely<Database>,
  values: { accountId: string; kind: SeatsTable['kind']; userId: string | null; name: string; email: string },
  now: Date,
): Promise<Seat> {
  const row = await trx
    .insertInto('seats')
    .values({
      id: randomUUID(),
      account_id: values.accountId,
      kind: values.kind,
      user_id: values.userId,
      name: values.name,
      email: values.email,
      created_at: now,
    })
    .returning(SEAT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toSeat(row);
}

export async function insertEnrollment(
  trx: Kysely<Database>,
  values: {
    accountId: string;
    seatId: string;
    profile: { id: string; name: string };
    codeHash: string;
    codeExpiresAt: Date;
    createdBy: string;
  },
  now: Date,
): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto('enrollments')
    .values({
      id,
      account_id: values.accountId,
      seat_id: values.seatId,
      profile_id: values.profile.id,
      profile_name: values.profile.name,
      status: 'pending',
      code_hash: values.codeHash,
      code_expires_at: values.codeExpiresAt,
      created_by: values.createdBy,
      created_at: now,
    })
    .execute();
  return id;
}

/** Writes `values` to the enrollment and moves its version on. */
export async function updateEnrollment(
  trx: Kysely<Database>,
  id: string,
  values: Pick<
    Updateable<EnrollmentsTable>,
    | 'status'
    | 'code_hash'
    | 'code_expires_at'
    | 'enrollment_method'
    | 'keystore_type'
    | 'certificate_id'
    | 'issued_at'
    | 'redeemed_at'
    | 'cancelled_at'
    | 'failed_attempts'
    | 'client_auth_requested_at'
    | 'client_auth_requested_by'
    | 'client_auth_certificate_id'
  >,
): Promise<void> {
  await trx
    .updateTable('enrollments')
    .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/**
 * Counts a wrong code against the enrollment, in a statement of its own (not the request's
 * transaction): the count must stay whatever the request answers. Not a version change: the
 * administrators' copy stays current.
 */
export async function countWrongCode(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('enrollments')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** The pending enrollments of the seats of these people, locked, for their cancellation. */
export async function pendingEnrollmentsOfUsers(
  trx: Kysely<Database>,
  userIds: readonly string[],
): Promise<{ id: string; account_id: string; seat_id: string }[]> {
  if (userIds.length === 0) return [];
  return trx
    .selectFrom('enrollments')
    .select(['id', 'account_id', 'seat_id'])
    .where('status', '=', 'pending')
    .where(
      'seat_id',
      'in',
      trx
        .selectFrom('seats')
        .select('id')
        .where('user_id', 'in', [...userIds]),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * The platform certificates an enrollment's link made: its certificate, and the client certificate
 * the enrollee made through it (decision 033), which a cancellation revokes with it.
 */
export async function certificatesMadeThrough(
  trx: Kysely<Database>,
  row: Pick<StoredEnrollment, 'certificate_id' | 'client_auth_certificate_id'>,
): Promise<string[]> {
  const ids = row.certificate_id === null ? [] : [row.certificate_id];
  if (row.client_auth_certificate_id === null) return ids;
  const clientAuth = await trx
    .selectFrom('client_auth_certificates')
    .select('certificate_id')
    .where('id', '=', row.client_auth_certificate_id)
    .executeTakeFirst();
  return clientAuth?.certificate_id ? [...ids, clientAuth.certificate_id] : ids;
}

// What the enrollment routes read of other tables, for their checks and answers -----------------

/**
 * A person of the account (primary or added to it), never a service user: who a person's seat may
 * be for (decision 021 §1).
 */
export function findPersonOfAccount(db: Kysely<Database>, accountId: string, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'user_name', 'email'])
    .where('id', '=', userId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('service_users')
            .select('service_users.user_id')
            .whereRef('service_users.user_id', '=', 'users.id'),
        ),
      ),
    )
    .where((eb) =>
      eb.or([
        eb('primary_account_id', '=', accountId),
        eb.exists(
          eb
            .selectFrom('user_accounts')
            .select('user_accounts.user_id')
            .whereRef('user_accounts.user_id', '=', 'users.id')
            .where('user_accounts.account_id', '=', accountId),
        ),
      ]),
    )
    .executeTakeFirst();
}

/** The account's certificate profile a new enrollment issues under. */
export function findProfileOfAccount(db: Kysely<Database>, accountId: string, profileId: string) {
  return db
    .selectFrom('certificate_profiles')
    .select(['id', 'name'])
    .where('id', '=', profileId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** The profile an enrollment issues under, with the policy that decides its certificate. */
export function findProfilePolicy(db: Kysely<Database>, profileId: string) {
  return db
    .selectFrom('certificate_profiles')
    .select(['id', 'name', 'policy'])
    .where('id', '=', profileId)
    .executeTakeFirst();
}

/** How the enrollee's page greets the person of a seat. */
export function findPersonName(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('users')
    .select(['first_name', 'last_name'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** The person a client certificate asked for on their enrollment is issued to (decision 033). */
export function findClientAuthPerson(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'user_name', 'primary_account_id'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** The certificate an enrollment issued, to install it again (decision 021 §6). */
export function findEnrollmentCertificate(db: Kysely<Database>, certificateId: string) {
  return db
    .selectFrom('certificates')
    .select(['id', 'serial_number', 'issuer_id', 'certificate'])
    .where('id', '=', certificateId)
    .executeTakeFirst();
}
