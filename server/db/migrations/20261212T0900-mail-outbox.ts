import { type Kysely, sql } from 'kysely';

/**
 * Mail leaves through a transactional outbox (docs/decisions/037-mail.md §2):
 * a change inserts a `mail_outbox` row in its own transaction and a dispatcher sends it later with
 * no transaction open. The row holds no link and no secret; the one-time link is made when the
 * message is sent and only its SHA-256 is kept, in `user_tokens`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('kind', 'text', (col) =>
      col
        .notNull()
        .check(
          sql`kind in ('invitation','verify_email','standard_login','reset_password','sso_sign_in','mfa_reset','unlock','email_changed','password_changed')`,
        ),
    )
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('to_address', 'text', (col) => col.notNull())
    .addColumn('requested_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('next_attempt_at', 'timestamptz', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    // A dispatcher's lease: while it lies ahead, no other process sends the row.
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('failed_at', 'timestamptz')
    // The SMTP status and at most 200 characters of its reply, never the message's content.
    .addColumn('last_error', 'text', (col) => col.check(sql`char_length(last_error) <= 240`))
    .execute();
  // What the dispatcher scans: only rows still to send, in the order they fall due.
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .column('next_attempt_at')
    .where(sql.ref('sent_at'), 'is', null)
    .where(sql.ref('failed_at'), 'is', null)
    .execute();
  // A user's last mail (shown on the user's details, and the 60-second resend limit) and the cascade.
  await db.schema
    .createIndex('mail_outbox_user')
    .on('mail_outbox')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('mail_outbox_created_at').on('mail_outbox').column('created_at').execute();

  await db.schema
    .createTable('user_tokens')
    // SHA-256 (hex) of the link's code; the code itself exists only in the sent message.
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (col) =>
      col.notNull().check(sql`purpose in ('invitation','verify_email','reset_password')`),
    )
    // The address the link went to: the link dies when the user's address changes.
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('user_tokens_user_purpose')
    .on('user_tokens')
    .columns(['user_id', 'purpose'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_tokens').execute();
  await db.schema.dropTable('mail_outbox').execute();
}
