import { type Kysely, sql } from 'kysely';

/**
 * The mail with a used enrollment's new link, for the client certificate an administrator asked for
 * after the enrollee had finished (`enrollment_client_auth`, decision 033): the outbox accepts its kind.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mail_outbox drop constraint mail_outbox_kind_check`.execute(db);
  await sql`alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('invitation','verify_email','standard_login','reset_password','sso_sign_in','mfa_reset','unlock','email_changed','password_changed','client_auth_setup','enrollment','enrollment_client_auth'))`.execute(
    db,
  );
}
