import { type Kysely, sql } from 'kysely';

/**
 * Every change to what a signed-in caller is (decision 024, "Throughput at fifty clients") sends a
 * notification on `principal_changed` when it commits, so each server process can drop the callers
 * it remembers (`server/identity/principal-cache.ts`): a session revoked, ended or refreshed, a user changed
 * or deleted, a user's roles changed (payload: that user's id), a role changed or deleted, an account
 * activated or deactivated (empty payload: every caller). Changes made straight in SQL notify too.
 */

/** The channel as this migration names it; the cache listens on the same name. */
const PRINCIPAL_CHANGED_CHANNEL = 'principal_changed';

/** Table, events, and the column naming the user a row belongs to (null: the change concerns anyone). */
const WATCHED: readonly { table: string; events: string; userColumn: string | null }[] = [
  { table: 'sessions', events: 'update or delete', userColumn: 'user_id' },
  { table: 'users', events: 'update or delete', userColumn: 'id' },
  { table: 'user_roles', events: 'insert or update or delete', userColumn: 'user_id' },
  { table: 'roles', events: 'update or delete', userColumn: null },
  { table: 'accounts', events: 'update of active or delete', userColumn: null },
];

const triggerName = (table: string, suffix: string) => `${table}_principal_changed${suffix}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_principal_changed() returns trigger language plpgsql as $$
    begin
      if tg_level = 'ROW' and tg_nargs > 0 then
        perform pg_notify(${sql.lit(PRINCIPAL_CHANGED_CHANNEL)},
          (case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end) ->> tg_argv[0]);
      else
        perform pg_notify(${sql.lit(PRINCIPAL_CHANGED_CHANNEL)}, '');
      end if;
      return null;
    end
    $$`.execute(db);
  for (const { table, events, userColumn } of WATCHED) {
    const each = userColumn === null ? sql`statement` : sql`row`;
    const argument = userColumn === null ? sql`` : sql.lit(userColumn);
    await sql`create trigger ${sql.id(triggerName(table, ''))} after ${sql.raw(events)} on ${sql.id(table)}
      for each ${each} execute function notify_principal_changed(${argument})`.execute(db);
    await sql`create trigger ${sql.id(triggerName(table, '_truncate'))} after truncate on ${sql.id(table)}
      for each statement execute function notify_principal_changed()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table } of WATCHED) {
    for (const suffix of ['', '_truncate']) {
      await sql`drop trigger ${sql.id(triggerName(table, suffix))} on ${sql.id(table)}`.execute(db);
    }
  }
  await sql`drop function notify_principal_changed()`.execute(db);
}
