import type { Kysely } from 'kysely';

/**
 * A client-authentication certificate asked for on a person's enrollment (decision 033): when an
 * administrator asked for it and who, and the certificate the enrollee then made through the
 * enrollment link. The certificate's key is the enrollee's: nothing of it is stored here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('enrollments')
    .addColumn('client_auth_requested_at', 'timestamptz')
    .addColumn('client_auth_requested_by', 'text', (column) =>
      column.references('users.id').onDelete('set null'),
    )
    .addColumn('client_auth_certificate_id', 'text', (column) =>
      column.references('client_auth_certificates.id').onDelete('set null'),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('enrollments')
    .dropColumn('client_auth_certificate_id')
    .dropColumn('client_auth_requested_by')
    .dropColumn('client_auth_requested_at')
    .execute();
}
