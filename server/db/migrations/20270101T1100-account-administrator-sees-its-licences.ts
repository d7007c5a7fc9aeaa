import { type Kysely, sql } from 'kysely';

/**
 * The built-in Account administrator sees its own account's licences (J-09): it held VIEW_LICENSE,
 * but a licence section needs the application's own view permission. Built-in roles are seeded once
 * (`ensureBuiltInRoles` leaves an existing row alone), so the role stored already gets them here.
 * The list is this migration's own copy, as the permissions were named when it was written.
 */
const APPLICATION_LICENCE_VIEWS = [
  'VIEW_CM_LICENSE',
  'VIEW_IOT_LICENSE',
  'VIEW_EM_LICENSE',
  'VIEW_SM_LICENSE',
  'VIEW_DSM_LICENSE',
  'VIEW_AM_LICENSE',
  'VIEW_TM_LICENSE',
  'VIEW_DEVCTM_LICENSE',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update roles
    set permissions = permissions || (
      select coalesce(jsonb_agg(name), '[]'::jsonb)
      from jsonb_array_elements_text(${JSON.stringify(APPLICATION_LICENCE_VIEWS)}::jsonb) as added(name)
      where not roles.permissions ? added.name
    )
    where code = 'account_administrator' and account_id is null
  `.execute(db);
}
