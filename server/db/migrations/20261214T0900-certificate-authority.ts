import { type Kysely, sql } from 'kysely';

/**
 * The platform's certificate authority (decision 019): its CAs, the certificate profiles of each
 * account, every certificate it issued, and the client-authentication certificates of users.
 *
 * Issued certificates outlive their account, profile and owner (`set null`): a revoked certificate
 * must stay on its CA's revocation list for as long as it could still be presented.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('certificate_authorities')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('root', 'issuing')`))
    .addColumn('parent_id', 'text', (col) => col.references('certificate_authorities.id'))
    // e.g. ECDSA-P384, RSA-3072 (contract/certificate-policy.ts CA_KEY_ALGORITHMS).
    .addColumn('key_algorithm', 'text', (col) => col.notNull())
    // encrypted: `sealed_private_key` holds the PKCS#8 key sealed under the operator's key;
    // pkcs11: the key never leaves the token and `key_label` names it there.
    .addColumn('key_custody', 'text', (col) =>
      col.notNull().check(sql`key_custody in ('encrypted', 'pkcs11')`),
    )
    .addColumn('sealed_private_key', 'bytea')
    .addColumn('key_label', 'text')
    .addColumn('certificate', 'bytea', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('serial_number', 'text', (col) => col.notNull())
    .addColumn('not_before', 'timestamptz', (col) => col.notNull())
    .addColumn('not_after', 'timestamptz', (col) => col.notNull())
    .addColumn('sha256_fingerprint', 'text', (col) => col.notNull().unique())
    // The CRL the CA signed last; its number only grows.
    .addColumn('crl_number', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('crl', 'bytea')
    .addColumn('crl_this_update', 'timestamptz')
    .addColumn('crl_next_update', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('retired_at', 'timestamptz')
    .addCheckConstraint(
      'certificate_authorities_key',
      sql`(key_custody = 'encrypted' and sealed_private_key is not null)
        or (key_custody = 'pkcs11' and key_label is not null)`,
    )
    .execute();
  // One working root and one working issuing CA; a retired one stays for its CRL.
  await db.schema
    .createIndex('certificate_authorities_working_kind')
    .unique()
    .on('certificate_authorities')
    .column('kind')
    .where(sql.ref('retired_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('certificate_profiles')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull().check(sql`char_length(name) between 1 and 100`))
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('cert_type', 'text', (col) =>
      col.notNull().defaultTo('end_entity').check(sql`cert_type in ('end_entity')`),
    )
    // contract/certificate-policy.ts ProfilePolicy
    .addColumn('policy', 'jsonb', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await sql`create unique index certificate_profiles_account_name
    on certificate_profiles (account_id, lower(name))`.execute(db);

  await db.schema
    .createTable('certificates')
    .addColumn('id', 'text', (col) => col.primaryKey())
    // Lower-case hexadecimal, as openssl prints it without separators.
    .addColumn('serial_number', 'text', (col) => col.notNull().unique())
    .addColumn('issuer_id', 'text', (col) => col.notNull().references('certificate_authorities.id'))
    .addColumn('account_id', 'text', (col) => col.references('accounts.id').onDelete('set null'))
    .addColumn('profile_id', 'text', (col) => col.references('certificate_profiles.id').onDelete('set null'))
    // The profile's name when the certificate was issued; it survives the profile.
    .addColumn('profile_name', 'text')
    .addColumn('source', 'text', (col) =>
      col.notNull().check(sql`source in ('client_auth', 'enrollment', 'profile')`),
    )
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('common_name', 'text', (col) => col.notNull())
    // e.g. "RSA 2048", "EC P-256"
    .addColumn('key_algorithm', 'text', (col) => col.notNull())
    .addColumn('not_before', 'timestamptz', (col) => col.notNull())
    .addColumn('not_after', 'timestamptz', (col) => col.notNull())
    .addColumn('certificate', 'bytea', (col) => col.notNull())
    .addColumn('sha256_fingerprint', 'text', (col) => col.notNull().unique())
    .addColumn('owner_user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('issued_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    // contract/certificate-policy.ts REVOCATION_REASONS
    .addColumn('revocation_reason', 'text')
    .addColumn('revoked_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addCheckConstraint('certificates_revocation', sql`(revoked_at is null) = (revocation_reason is null)`)
    .execute();
  await db.schema
    .createIndex('certificates_account_created')
    .on('certificates')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema.createIndex('certificates_owner').on('certificates').column('owner_user_id').execute();
  // What a CRL lists.
  await db.schema
    .createIndex('certificates_revoked')
    .on('certificates')
    .columns(['issuer_id', 'revoked_at'])
    .where(sql.ref('revoked_at'), 'is not', null)
    .execute();

  await db.schema
    .createTable('client_auth_certificates')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    // issued: by the platform CA, `certificate_id` names it; uploaded: the user's own certificate.
    .addColumn('source', 'text', (col) => col.notNull().check(sql`source in ('issued', 'uploaded')`))
    .addColumn('certificate_id', 'text', (col) => col.references('certificates.id'))
    .addColumn('certificate', 'bytea', (col) => col.notNull())
    .addColumn('common_name', 'text', (col) => col.notNull())
    .addColumn('not_after', 'timestamptz', (col) => col.notNull())
    .addColumn('sha256_fingerprint', 'text', (col) => col.notNull())
    .addColumn('enabled', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addCheckConstraint(
      'client_auth_certificates_source',
      sql`(source = 'issued') = (certificate_id is not null)`,
    )
    .execute();
  await db.schema
    .createIndex('client_auth_certificates_user_fingerprint')
    .unique()
    .on('client_auth_certificates')
    .columns(['user_id', 'sha256_fingerprint'])
    .execute();
  // A presented certificate is looked up by its thumbprint.
  await db.schema
    .createIndex('client_auth_certificates_fingerprint')
    .on('client_auth_certificates')
    .column('sha256_fingerprint')
    .execute();
}
