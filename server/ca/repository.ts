import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The CAs the platform issues with, the root first; retired ones are kept for their CRLs only. */
export function listActiveCertificateAuthorities(db: Kysely<Database>) {
  return db
    .selectFrom('certificate_authorities')
    .selectAll()
    .where('retired_at', 'is', null)
    .orderBy('kind', 'desc')
    .execute();
}

export function findCertificateAuthority(db: Kysely<Database>, id: string) {
  return db.selectFrom('certificate_authorities').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A CA's own certificate (DER), as it is published. */
export function findCaCertificate(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('certificate_authorities')
    .select(['certificate'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A CA's current CRL (DER) and when it was signed and is due again, as it is published. */
export function findPublishedCrl(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('certificate_authorities')
    .select(['crl', 'crl_this_update', 'crl_next_update'])
    .where('id', '=', id)
    .executeTakeFirst();
}
