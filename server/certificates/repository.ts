import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { CERTIFICATE_STATUSES, type CertificateStatus } from '../../contract/certificate-policy.ts';
import type { CertificateFilters, CertificateSummary } from '../../contract/schemas/certificates.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { CertificateSortColumn } from '../../contract/sort-columns.ts';
import { visibleTo } from '../authorization/account-reach.ts';
import type { SortKeys } from '../db/keyset.ts';
import { containsPattern } from '../db/like.ts';
import { type ListPageOf, listPage, type PageRequest } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import { oneOf } from '../db/stored-values.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * Certificates the platform CA issued, as stored (decision 019). Every read goes through the caller's
 * reach first: a certificate of an account out of reach is answered 404 and never counted, sorted or
 * exported; one whose account is gone is seen by the system scope only.
 */

export const DEFAULT_SORT: SortOrder<CertificateSortColumn> = { column: 'issued', direction: 'desc' };

/** The derived status: revoked once revoked, else expired after its end of validity, else issued. */
export function statusOf(now: Date) {
  return sql<string>`case
    when ${sql.ref('certificates.revoked_at')} is not null then 'revoked'
    when ${sql.ref('certificates.not_after')} < ${now} then 'expired'
    else 'issued' end`;
}

/** Sort keys per column, before the `id` tie-breaker; none is ever null (keyset exports need that). */
export function sortKeys(column: CertificateSortColumn, now: Date): SortKeys {
  const issued = sql.ref('certificates.created_at');
  const keys: Record<CertificateSortColumn, readonly RawBuilder<unknown>[]> = {
    common_name: [sql`lower(${sql.ref('certificates.common_name')})`],
    serial_number: [sql.ref('certificates.serial_number')],
    account: [sql`lower(coalesce(${sql.ref('accounts.name')}, ''))`, issued],
    profile: [sql`lower(coalesce(${sql.ref('certificates.profile_name')}, ''))`, issued],
    status: [statusOf(now), issued],
    valid_to: [sql.ref('certificates.not_after')],
    issued: [issued],
  };
  return [...keys[column], sql.ref('certificates.id')];
}

/**
 * Where-clause of the certificates `principal` reaches, over `certificates` left-joined to `accounts`:
 * the system scope every one, the others those of the accounts they see.
 */
function reachOf(principal: Principal) {
  return (eb: ExpressionBuilder<Database, 'certificates' | 'accounts'>): Expression<SqlBool> => {
    if (principal.accessScope === 'system') return eb.lit(true);
    const seen = visibleTo(principal)(eb as unknown as ExpressionBuilder<Database, 'accounts'>);
    return eb.and([eb('certificates.account_id', 'is not', null), seen]);
  };
}

function reachableCertificates(db: Kysely<Database>, principal: Principal) {
  return db
    .selectFrom('certificates')
    .leftJoin('accounts', 'accounts.id', 'certificates.account_id')
    .where(reachOf(principal));
}

/** `text` as a serial number is written: lower-case hexadecimal, colons and spaces dropped. */
function asSerial(text: string): string | null {
  const compact = text.replace(/[:\s]/g, '').toLowerCase();
  return /^[0-9a-f]+$/.test(compact) ? compact : null;
}

/** The first instant of day `date` (UTC). */
function startOfDay(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

export function filteredCertificates(
  db: Kysely<Database>,
  principal: Principal,
  filters: CertificateFilters,
  now: Date,
) {
  let query = reachableCertificates(db, principal);
  if (filters.q) {
    const pattern = containsPattern(filters.q.toLowerCase());
    const serial = asSerial(filters.q);
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(${sql.ref('certificates.common_name')})`, 'like', pattern),
        ...(serial ? [eb('certificates.serial_number', 'like', containsPattern(serial))] : []),
      ]),
    );
  }
  if (filters.status !== undefined) query = query.where(statusOf(now), '=', filters.status);
  if (filters.account_id !== undefined)
    query = query.where('certificates.account_id', '=', filters.account_id);
  if (filters.profile_id !== undefined)
    query = query.where('certificates.profile_id', '=', filters.profile_id);
  if (filters.source !== undefined) query = query.where('certificates.source', '=', filters.source);
  if (filters.issued_from !== undefined) {
    query = query.where('certificates.created_at', '>=', startOfDay(filters.issued_from));
  }
  if (filters.issued_to !== undefined) {
    const dayAfter = new Date(startOfDay(filters.issued_to).getTime() + 86_400_000);
    query = query.where('certificates.created_at', '<', dayAfter);
  }
  return query;
}

type Filtered = ReturnType<typeof filteredCertificates>;

function selectSummary(query: Filtered, now: Date) {
  return query.select([
    'certificates.id',
    'certificates.serial_number',
    'certificates.common_name',
    'certificates.subject',
    'certificates.account_id',
    'accounts.name as account_name',
    'certificates.profile_name',
    'certificates.source',
    'certificates.key_algorithm',
    'certificates.not_before',
    'certificates.not_after',
    statusOf(now).as('status'),
    'certificates.revoked_at',
    'certificates.revocation_reason',
    'certificates.created_at',
    'certificates.version',
  ]);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectSummary>['execute']>>[number];

const iso = (value: Date | string) => new Date(value).toISOString();

function toSummary(row: SummaryRow): CertificateSummary {
  return {
    id: row.id,
    serial_number: row.serial_number,
    common_name: row.common_name,
    subject: row.subject,
    account:
      row.account_id !== null && row.account_name !== null
        ? { id: row.account_id, name: row.account_name }
        : null,
    profile_name: row.profile_name,
    source: row.source,
    key_algorithm: row.key_algorithm,
    not_before: iso(row.not_before),
    not_after: iso(row.not_after),
    status: oneOf<CertificateStatus>(CERTIFICATE_STATUSES, row.status, 'certificate status'),
    revoked_at: row.revoked_at === null ? null : iso(row.revoked_at),
    revocation_reason: row.revocation_reason,
    created_at: iso(row.created_at),
    version: row.version,
  };
}

/** One page of the certificates the caller reaches, and how many match in all. */
export async function listCertificates(
  db: Kysely<Database>,
  principal: Principal,
  filters: CertificateFilters,
  page: PageRequest & { sort: SortOrder<CertificateSortColumn> },
  now: Date,
): Promise<ListPageOf<CertificateSummary>> {
  const { rows, ...total } = await listPage(
    {
      db,
      matching: filteredCertificates(db, principal, filters, now),
      keys: sortKeys(page.sort.column, now),
      direction: page.sort.direction,
      page,
    },
    (cut) => selectSummary(cut, now).execute(),
  );
  return { items: rows.map(toSummary), ...total };
}

/** A certificate within reach as the routes need it: its summary, its DER, its issuer. */
export interface ReachableCertificate extends CertificateSummary {
  der: Uint8Array;
  issuer_id: string;
  account_id: string | null;
}

/** The certificate `id` if `principal` reaches it; with `lock`, held until the transaction ends. */
export async function findReachableCertificate(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  lock: boolean,
  now: Date,
): Promise<ReachableCertificate | undefined> {
  let query = selectSummary(
    reachableCertificates(db, principal).where('certificates.id', '=', id),
    now,
  ).select(['certificates.certificate', 'certificates.issuer_id']);
  if (lock) query = query.forUpdate('certificates');
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  return { ...toSummary(row), der: row.certificate, issuer_id: row.issuer_id, account_id: row.account_id };
}

/** The summary of a certificate by id, whoever reaches it (after an issue made it). */
export async function certificateSummary(
  db: Kysely<Database>,
  id: string,
  now: Date,
): Promise<CertificateSummary | undefined> {
  const row = await selectSummary(
    db
      .selectFrom('certificates')
      .leftJoin('accounts', 'accounts.id', 'certificates.account_id')
      .where('certificates.id', '=', id),
    now,
  ).executeTakeFirst();
  return row && toSummary(row);
}

/** The CA certificates (DER) from the issuer of a certificate up to the root, issuer first. */
export async function issuerChain(db: Kysely<Database>, issuerId: string): Promise<Uint8Array[]> {
  const chain: Uint8Array[] = [];
  const seen = new Set<string>();
  let next: string | null = issuerId;
  while (next !== null && !seen.has(next)) {
    seen.add(next);
    const ca = await db
      .selectFrom('certificate_authorities')
      .select(['certificate', 'parent_id'])
      .where('id', '=', next)
      .executeTakeFirst();
    if (!ca) break;
    chain.push(ca.certificate);
    next = ca.parent_id;
  }
  return chain;
}

/** A profile within the caller's reach, with what issuing under it needs. */
export async function findReachableProfile(db: Kysely<Database>, principal: Principal, id: string) {
  return db
    .selectFrom('certificate_profiles')
    .innerJoin('accounts', 'accounts.id', 'certificate_profiles.account_id')
    .select([
      'certificate_profiles.id',
      'certificate_profiles.name',
      'certificate_profiles.account_id',
      'certificate_profiles.policy',
    ])
    .where('certificate_profiles.id', '=', id)
    .where(visibleTo(principal))
    .executeTakeFirst();
}
