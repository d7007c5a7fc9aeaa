import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { CertificateStatus } from '../../contract/certificate-policy.ts';
import type { ClientAuthCertificate, ClientAuthCertificateList } from '../../contract/schemas/client-auth.ts';
import { listPage } from '../db/list-page.ts';
import type { ClientAuthCertificatesTable, Database } from '../db/schema.ts';

/** The stored row with what the answer needs of its platform certificate. */
type Row = Selectable<ClientAuthCertificatesTable> & {
  issued_not_after: Date | null;
  revoked_at: Date | null;
};

function columns(db: Kysely<Database>) {
  return db
    .selectFrom('client_auth_certificates')
    .leftJoin('certificates', 'certificates.id', 'client_auth_certificates.certificate_id')
    .selectAll('client_auth_certificates')
    .select(['certificates.not_after as issued_not_after', 'certificates.revoked_at']);
}

/** Revoked (issued ones), else expired after notAfter, else issued. */
export function statusOf(row: { not_after: Date; revoked_at: Date | null }, now: Date): CertificateStatus {
  if (row.revoked_at !== null) return 'revoked';
  if (row.not_after.getTime() <= now.getTime()) return 'expired';
  return 'issued';
}

function record(row: Row, now: Date): ClientAuthCertificate {
  return {
    id: row.id,
    user_id: row.user_id,
    source: row.source,
    common_name: row.common_name,
    not_after: row.not_after.toISOString(),
    sha256_fingerprint: row.sha256_fingerprint,
    enabled: row.enabled,
    status: statusOf({ not_after: row.issued_not_after ?? row.not_after, revoked_at: row.revoked_at }, now),
    certificate_id: row.certificate_id,
    created_at: row.created_at.toISOString(),
    version: row.version,
  };
}

/** The user's certificates, newest first. */
export async function listClientAuthCertificates(
  db: Kysely<Database>,
  userId: string,
  page: { limit: number; offset: number },
  now: Date,
): Promise<ClientAuthCertificateList> {
  // A user's few certificates, newest first with ids ascending among equals: no keyset (mixed directions).
  const { rows, ...total } = await listPage(
    {
      db,
      matching: columns(db).where('client_auth_certificates.user_id', '=', userId),
      keys: null,
      direction: 'desc',
      page,
    },
    (cut) =>
      cut
        .orderBy('client_auth_certificates.created_at', 'desc')
        .orderBy('client_auth_certificates.id')
        .execute(),
  );
  return { items: rows.map((row) => record(row, now)), ...total };
}

/** The certificate `certId` of the user `userId`; with `lock`, held until the transaction ends. */
export async function findClientAuthCertificate(
  db: Kysely<Database>,
  userId: string,
  certId: string,
  now: Date,
  lock: boolean,
): Promise<ClientAuthCertificate | undefined> {
  const row = await columns(db)
    .where('client_auth_certificates.user_id', '=', userId)
    .where('client_auth_certificates.id', '=', certId)
    .$if(lock, (query) => query.forUpdate('client_auth_certificates'))
    .executeTakeFirst();
  return row && record(row, now);
}

export async function fingerprintTaken(
  db: Kysely<Database>,
  userId: string,
  fingerprint: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('client_auth_certificates')
    .select('id')
    .where('user_id', '=', userId)
    .where('sha256_fingerprint', '=', fingerprint)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertClientAuthCertificate(
  db: Kysely<Database>,
  values: {
    userId: string;
    source: 'issued' | 'uploaded';
    certificateId: string | null;
    der: Uint8Array;
    commonName: string;
    notAfter: Date;
    fingerprint: string;
    createdBy: string;
  },
  now: Date,
): Promise<ClientAuthCertificate> {
  const id = randomUUID();
  await db
    .insertInto('client_auth_certificates')
    .values({
      id,
      user_id: values.userId,
      source: values.source,
      certificate_id: values.certificateId,
      certificate: values.der,
      common_name: values.commonName,
      not_after: values.notAfter,
      sha256_fingerprint: values.fingerprint,
      created_at: now,
      created_by: values.createdBy,
    })
    .execute();
  const created = await findClientAuthCertificate(db, values.userId, id, now, false);
  if (!created) throw new Error('The client-auth certificate just written was not found.');
  return created;
}

export async function setClientAuthEnabled(
  db: Kysely<Database>,
  id: string,
  enabled: boolean,
): Promise<void> {
  await db
    .updateTable('client_auth_certificates')
    .set((eb) => ({ enabled, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** What a generated certificate's subject is made of: the user's own stored facts, never the CSR's. */
export async function subjectFactsOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.primary_account_id')
    .select(['users.user_name', 'users.email', 'users.kind', 'accounts.name as account_name'])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** Where a person's client-certificate mail goes: their address now. */
export function findOwnerAddress(db: Kysely<Database>, userId: string) {
  return db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
}
