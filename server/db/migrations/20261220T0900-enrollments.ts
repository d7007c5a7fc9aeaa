import { type Kysely, sql } from 'kysely';

/**
 * Certificate enrollment (decision 021): the seats of an account (a person or a device), the
 * enrollments made for them, and the enrollment mail in the outbox. An enrollment keeps only the
 * SHA-256 of its code; the mail's outbox row carries the link until it is sent or given up
 * (decision 021 §2, "The link in the outbox").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('seats')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('user', 'device')`))
    // A person's seat outlives the person (set null) as the history of their enrollments.
    .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (col) => col.notNull().check(sql`char_length(name) between 1 and 200`))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addCheckConstraint('seats_device_has_no_user', sql`kind = 'user' or user_id is null`)
    .execute();
  // One seat per person and account.
  await db.schema
    .createIndex('seats_account_user')
    .unique()
    .on('seats')
    .columns(['account_id', 'user_id'])
    .where(sql.ref('user_id'), 'is not', null)
    .execute();
  await db.schema.createIndex('seats_user').on('seats').column('user_id').execute();

  await db.schema
    .createTable('enrollments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('seat_id', 'text', (col) => col.notNull().references('seats.id').onDelete('cascade'))
    .addColumn('profile_id', 'text', (col) => col.references('certificate_profiles.id').onDelete('set null'))
    // The profile's name when the enrollment was made; it survives the profile.
    .addColumn('profile_name', 'text', (col) => col.notNull())
    // `expired` is never stored: a pending enrollment whose code_expires_at has passed reads so.
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('pending', 'issued', 'redeemed', 'cancelled')`),
    )
    // SHA-256 (hex) of the mailed code; the code itself is never stored.
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('code_expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('failed_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('enrollment_method', 'text', (col) => col.check(sql`enrollment_method in ('DTA', 'DDC')`))
    .addColumn('keystore_type', 'text')
    .addColumn('certificate_id', 'text', (col) => col.references('certificates.id'))
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('issued_at', 'timestamptz')
    .addColumn('redeemed_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addCheckConstraint(
      'enrollments_certificate',
      sql`(status in ('issued', 'redeemed')) <= (certificate_id is not null)`,
    )
    .execute();
  await db.schema
    .createIndex('enrollments_account_created')
    .on('enrollments')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema.createIndex('enrollments_seat').on('enrollments').column('seat_id').execute();

  // The enrollment mail: to a seat rather than a user, with its link until it leaves.
  await sql`alter table mail_outbox alter column user_id drop not null`.execute(db);
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('enrollment_id', 'text', (col) => col.references('enrollments.id').onDelete('cascade'))
    .execute();
  await db.schema.alterTable('mail_outbox').addColumn('link', 'text').execute();
  await sql`alter table mail_outbox add constraint mail_outbox_recipient check (user_id is not null or enrollment_id is not null)`.execute(
    db,
  );
  await sql`alter table mail_outbox drop constraint mail_outbox_kind_check`.execute(db);
  await sql`alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('invitation','verify_email','standard_login','reset_password','sso_sign_in','mfa_reset','unlock','email_changed','password_changed','client_auth_setup','enrollment'))`.execute(
    db,
  );
}
